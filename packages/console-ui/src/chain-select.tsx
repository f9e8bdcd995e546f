/** A labelled choice of chain; `anyLabel` adds an "any chain" option for filters. */
export function ChainSelect({
  id,
  chains,
  value,
  onChange,
  anyLabel,
}: {
  id: string;
  chains: { chain_id: number; name: string }[];
  value: string;
  onChange: (value: string) => void;
  anyLabel?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Chain</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        {chains.map((chain) => (
          <option key={chain.chain_id} value={String(chain.chain_id)}>
            {chain.name} ({chain.chain_id})
          </option>
        ))}
      </select>
    </div>
  );
}
