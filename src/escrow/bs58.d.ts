// bs58 4 ships no types; the one function the ledger uses.
declare module 'bs58' {
  const bs58: { encode(bytes: Uint8Array): string };
  export default bs58;
}
