/**
 * The Users and bots section's pieces shared by its lists: a list's heading with its Add button,
 * and the table of people (users or bots) with its column headers.
 */
import type { ComponentChildren } from 'preact';
import { TableBox } from '../../ui/TableBox.js';

/** A list's heading (`id` labels its section) and the button that opens its Add dialog. */
export function SectionHead({ id, title, add, onAdd }: { id: string; title: string; add: string; onAdd: (from: HTMLElement) => void }) {
  return (
    <div class="section-head">
      <h2 id={id}>{title}</h2>
      <button type="button" onClick={(e) => onAdd(e.currentTarget)}>
        {add}
      </button>
    </div>
  );
}

/** A scrolling table of people: `label` names its box, `name` the table; the rows are the children. */
export function PeopleTable({ label, name, columns, children }: { label: string; name: string; columns: readonly string[]; children: ComponentChildren }) {
  return (
    <TableBox label={label}>
      <table class="list people-list" aria-label={name}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableBox>
  );
}
