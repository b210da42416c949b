import type { HttpFaults } from '../http/faults.js';
import type { SessionReportWriter } from '../http/live-server.js';
import type { FaultsMet } from '../faults/run-faults.js';
import { FaultTally } from '../faults/tally.js';
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

/**
 * The world's outcome so far, with every agent the scenario did not create added as an `http` agent (by
 * handle order), and the faults HTTP clients met on the socket (`httpFaults`) beside the world's own.
 */
export function sessionOutcome(live: LiveWorld, httpFaults?: HttpFaults): RunOutcome {
  const outcome = { ...live.world.outcomeSoFar() };
  outcome.faults = sessionFaults(outcome.faults, httpFaults);
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
 * The session's faults in one tally: those the simulated agents met in process (the scenario's profile) and
 * those HTTP clients met on the socket; their handles never overlap. Named by both profiles when they differ.
 */
function sessionFaults(own: FaultsMet | undefined, http: HttpFaults | undefined): FaultsMet | undefined {
  if (http === undefined || (http.empty && http.tally.byAgent.size === 0)) return own;
  const tally = new FaultTally();
  for (const source of [own?.tally, http.tally])
    for (const [handle, met] of source?.byAgent ?? []) tally.byAgent.set(handle, met);
  const onSocket = http.injector.profile;
  const profile =
    own === undefined || own.profile.name === onSocket.name
      ? onSocket
      : { ...onSocket, name: `${own.profile.name} (in process), ${onSocket.name} (HTTP)` };
  return { profile, tally };
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
  return (live, httpFaults) => {
    const outcome = sessionOutcome(live, httpFaults);
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
