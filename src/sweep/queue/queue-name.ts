/** The BullMQ queue a sweep and its workers use unless told otherwise (`--queue-name`). */
export const DEFAULT_QUEUE_NAME = 'agent-chess-sim-sweep';
