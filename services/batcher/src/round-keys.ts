/**
 * Keys of the gather window: a hot wallet's sweep round is keyed by the hot wallet's id (a uuid);
 * a partner's revocation round on a chain by `revocations:<partnerId>:<chainId>`, which no uuid
 * can equal. One window then serves both, one round per key at a time.
 */
export type RoundTarget = { kind: "sweeps"; hotWalletId: string } | { kind: "revocations"; partnerId: string; chainId: number };

const REVOCATIONS = "revocations";

export function revocationRoundKey(partnerId: string, chainId: number): string {
  return `${REVOCATIONS}:${partnerId}:${chainId}`;
}

export function roundTarget(key: string): RoundTarget {
  const [kind, partnerId, chainId, ...rest] = key.split(":");
  if (kind !== REVOCATIONS) return { kind: "sweeps", hotWalletId: key };
  if (!partnerId || !/^\d+$/.test(chainId ?? "") || rest.length > 0) throw new Error(`malformed revocation round key ${key}`);
  return { kind: "revocations", partnerId, chainId: Number(chainId) };
}

/** The round a key asks for, run by the round of its kind. */
export function roundByKey(rounds: {
  sweeps: (hotWalletId: string) => Promise<unknown>;
  revocations: (target: { partnerId: string; chainId: number }) => Promise<unknown>;
}): (key: string) => Promise<unknown> {
  return (key) => {
    const target = roundTarget(key);
    return target.kind === "sweeps" ? rounds.sweeps(target.hotWalletId) : rounds.revocations({ partnerId: target.partnerId, chainId: target.chainId });
  };
}
