/** The user stopped the sweep (Ctrl-C or SIGTERM); nothing is written. */
export class SweepAborted extends Error {
  override readonly name = 'SweepAborted';
  constructor() {
    super('the sweep was stopped');
  }
}
