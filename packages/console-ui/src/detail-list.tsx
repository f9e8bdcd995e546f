import type { ReactNode } from "react";

/** Every field of an object as a description list; absent fields say so rather than vanish. */
export function DetailList({ rows, testId }: { rows: [label: string, value: ReactNode][]; testId?: string }) {
  return (
    <dl className="details" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value === undefined || value === null || value === "" ? "—" : value}</dd>
        </div>
      ))}
    </dl>
  );
}
