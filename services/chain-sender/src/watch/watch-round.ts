import type { ChainClient } from "@sweep/rpc";

/** A watcher round's head, and its final block (ChainClient.finalBlock). */
export interface WatchRound {
  head: number;
  /** read at most once a round, and only when something needs it: on a finalized chain it is a call */
  final(): Promise<number>;
}

export function watchRound(client: Pick<ChainClient, "finalBlock">, head: number): WatchRound {
  let final: Promise<number> | undefined;
  return { head, final: () => (final ??= client.finalBlock(head)) };
}
