/** A status in its colour, with the reason when there is one (why a sweep failed, or why the last attempt did not go through). */
export function StatusText({ status, reason }: { status: string; reason?: string }) {
  return (
    <>
      <span className={`status status-${status}`}>{status}</span>
      {reason && ` (${reason})`}
    </>
  );
}
