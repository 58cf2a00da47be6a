// The pieces of a list screen: its search box, its table from a column description, pages, loading state and row actions.
import { texts } from '@estudio/core';
import { ActionIcon, Alert, Center, Group, Loader, Pagination, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { errorText } from '../format.ts';

const t = texts.adminConsole;

/** A search box whose value reaches the server 300 ms after the last key. */
export function useSearch(): { query: string; debounced: string; input: ReactNode; reset: () => void } {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 300);
  const input = (
    <TextInput
      placeholder={t.search}
      leftSection={<IconSearch size={16} />}
      value={query}
      onChange={(e) => setQuery(e.currentTarget.value)}
      w={320}
      data-testid="admin-search"
      aria-label={t.search}
    />
  );
  return { query, debounced, input, reset: () => setQuery('') };
}

/** '26–50 de 112' and the page buttons; the server pages the rows. */
/** Pages of a list; `capped`: more match than `total` (a customer search counts up to a cap), so the last page shown is the cap's. */
export function Pager({ page, limit, total, capped = false, onChange }: { page: number; limit: number; total: number; capped?: boolean; onChange: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" data-testid="admin-total">
        {t.totalOf(from, to, total, capped)}
      </Text>
      {pages > 1 && <Pagination total={pages} value={page} onChange={onChange} size="sm" />}
    </Group>
  );
}

/** Loading, error or the content of a server read. */
export function Loaded({ query, children }: { query: { isPending: boolean; error: unknown }; children: () => ReactNode }) {
  if (query.error) return <Alert color="red">{errorText(query.error)}</Alert>;
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  return <>{children()}</>;
}

/** The edit and delete icons at the end of a list row; `name` makes each button's label unique for screen readers and tests. No `onDelete`: no delete icon. */
export function RowActions({ name, onEdit, onDelete, end = false }: { name: string; onEdit: () => void; onDelete?: (() => void) | undefined; end?: boolean }) {
  return (
    <Group gap={4} wrap="nowrap" justify={end ? 'flex-end' : undefined}>
      <Tooltip label={t.edit}>
        <ActionIcon variant="subtle" aria-label={`${t.edit} ${name}`} onClick={onEdit}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      {onDelete && (
        <Tooltip label={t.delete}>
          <ActionIcon variant="subtle" color="red" aria-label={`${t.delete} ${name}`} onClick={onDelete}>
            <IconTrash size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** One column of a list: its heading and what a row shows in it. */
export interface ListColumn<Row> {
  label: string;
  render: (row: Row) => ReactNode;
}

/**
 * A list screen's table, drawn from its columns: a heading per column, a row
 * per record (`rowProps` adds the row's own attributes: a test id, a data
 * attribute, a click), the row's actions in a last unnamed column when given,
 * and the console's "nothing here" under an empty table.
 */
export function ListTable<Row>({
  testId,
  rows,
  rowKey,
  columns,
  actions,
  rowProps,
  hover = true,
  empty = t.empty,
}: {
  testId?: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  columns: readonly ListColumn<Row>[];
  actions?: (row: Row) => ReactNode;
  rowProps?: (row: Row) => Record<string, unknown>;
  /** Rows light up under the pointer (a list to act on); a report's figures do not. */
  hover?: boolean;
  /** What an empty table says; null: nothing. */
  empty?: ReactNode;
}) {
  return (
    <>
      <Table striped highlightOnHover={hover} data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label}>{c.label}</Table.Th>
            ))}
            {actions && <Table.Th />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((c) => (
                <Table.Td key={c.label}>{c.render(row)}</Table.Td>
              ))}
              {actions && <Table.Td>{actions(row)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {rows.length === 0 && empty !== null && <Text c="dimmed">{empty}</Text>}
    </>
  );
}
