import type { SessionReportWriter } from '../http/live-server.js';
import { findAgent } from '../platform/identity/identity.js';
import { OutputStage, renderRunReport } from '../report/write.js';
import type { LiveWorld } from '../sim/live.js';
import type { RunOutcome, SimAgent } from '../sim/world.js';

/**
 * A serve session's report set: the files `run` writes (report.json, games.pgn, report.html, junit.xml,
 * summary.md), from the live world as it stands, written through the same staging folder (src/report/
 * write.ts), so a reader of the folder sees the old set or the new one, never half of each.
 *
 * The agents registered over HTTP (an agent under test, someone with curl) have no persona in the scenario;
 * each is reported as an agent of its own kind, `http`, in a group of that name, so the verdict tables,
 * the Elo table and games.pgn name them beside the background population.
 */
export const HTTP_PERSONA = 'http';

/** The world's outcome so far, with every agent the scenario did not create added as an `http` agent (by handle order). */
export function sessionOutcome(live: LiveWorld): RunOutcome {
  const outcome = live.world.outcomeSoFar();
  const platform = outcome.platform;
  const simulated = new Set(outcome.agents.map((sim) => findAgent(platform, sim.handle)?.id));
  const fromHttp = [...platform.state.agents.values()]
    .filter((agent) => !simulated.has(agent.id))
    .map((agent) => agent.handle)
    .sort();
  const base = outcome.agents.length;
  const agents = fromHttp.map((handle, i) => httpAgent(base + i, handle));
  return {
    ...outcome,
    agents: [...outcome.agents, ...agents],
    agentGroups: [...outcome.agentGroups, ...agents.map(() => HTTP_PERSONA)],
  };
}

/**
 * An agent from outside as the report reads one: its index, handle, persona and account. It has no client,
 * stream or persona code in this process (its code runs wherever its author runs it), so those are absent,
 * and nothing that writes a report reaches for them.
 */
function httpAgent(index: number, handle: string): SimAgent {
  const reported: Pick<SimAgent, 'index' | 'handle' | 'persona' | 'account'> & { impl: null } = {
    index,
    handle,
    persona: HTTP_PERSONA,
    account: 'agent',
    impl: null,
  };
  return reported as unknown as SimAgent;
}

/**
 * The writer POST /_sim/report and serve's stop call, for `--out DIR`. The folder is checked when this is
 * made (OutputStage.prepare, staging discarded at once), so a folder that cannot be written stops serve at
 * its start, not at its end.
 */
export function sessionReportWriter(dir: string, replay: string): SessionReportWriter {
  OutputStage.prepare(dir).discard();
  return (live) => {
    const outcome = sessionOutcome(live);
    const stage = OutputStage.prepare(dir);
    try {
      const { report, files } = renderRunReport(live.scenario, outcome, { replay });
      return { files: stage.commit(files), agents: report.verdicts.agents.length, failed: outcome.failed };
    } catch (error) {
      stage.discard();
      throw error;
    }
  };
}
