import type { ReactNode } from "react";

/** One column of a table: its header and how a row fills its cell. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** the column that names the row, marked as the row's header for screen readers */
  rowHeader?: boolean;
  className?: string;
  testId?: string;
}

/** A table of rows with column headers and a caption (visually hidden unless `showCaption`). */
export function DataTable<T>({
  caption,
  showCaption = false,
  testId,
  columns,
  rows,
  rowKey,
  rowData,
}: {
  caption: string;
  showCaption?: boolean;
  testId?: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** data-* attributes of a row, for the browser test to find it */
  rowData?: (row: T) => Record<`data-${string}`, string>;
}) {
  // A wide table scrolls within its own box on a narrow screen, never the page; the box takes focus so a keyboard can scroll it.
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
    <table data-testid={testId}>
      <caption className={showCaption ? undefined : "visually-hidden"}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column.header} className={column.className}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowData?.(row)}>
            {columns.map((column) =>
              column.rowHeader ? (
                <th scope="row" key={column.header} className={column.className} data-testid={column.testId}>
                  {column.cell(row)}
                </th>
              ) : (
                <td key={column.header} className={column.className} data-testid={column.testId}>
                  {column.cell(row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}
