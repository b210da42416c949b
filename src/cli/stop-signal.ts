/**
 * A helper of the commands, not a command (`sweep` and `compare` share it): the first Ctrl-C (or SIGTERM)
 * aborts the work's signal, so it stops cleanly and writes nothing; a second one exits at once with 130.
 */
export async function withStopSignal<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nstopping (press Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
