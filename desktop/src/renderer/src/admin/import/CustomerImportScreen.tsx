import { Alert, Badge, Button, FileInput, Group, Paper, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileImport } from '@tabler/icons-react';
import { customerImportFields, texts, type CustomerImportField, type CustomerImportOutput } from '@estudio/core';
import { useState } from 'react';
import { errorText } from '../../format.ts';
import { api } from '../api.ts';

const t = texts.customerImport;
const outcomeColor = { new: 'teal', existing: 'blue', repeated: 'gray', refused: 'red' } as const;
/** Lines shown on screen; the rest are in the results file. */
const shownLines = 200;
type Columns = Partial<Record<CustomerImportField, number>>;

/** The results as a CSV the owner keeps: what each line became, and why. */
function resultsCsv(result: CustomerImportOutput): string {
  const cell = (v: string | number | null) => (v === null ? '' : /[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const rows = [
    [t.line, t.outcome, t.why, 'ID', texts.customerImport.fields.name, texts.customerImport.fields.last_name, texts.customerImport.fields.email, texts.customerImport.fields.phone],
    ...result.lines.map((l) => [l.line, t.outcomes[l.outcome], l.reasons.join(' '), l.customer_id, l.name, l.last_name, l.email, l.phone]),
  ];
  return `\uFEFF${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

function download(result: CustomerImportOutput) {
  const url = URL.createObjectURL(new Blob([resultsCsv(result)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'importacion-resultados.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Importar clientes: choose another system's CSV, see what each line would do (columns remapped by hand), then import. */
export function CustomerImportScreen() {
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<string | null>(null);
  const [columns, setColumns] = useState<Columns | undefined>(undefined);
  const [plan, setPlan] = useState<CustomerImportOutput | null>(null);
  const [done, setDone] = useState<CustomerImportOutput | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const importing = api.customerImport.customers.useMutation();

  const dryRun = async (text: string, mapping: Columns | undefined) => {
    setProblem(null);
    try {
      const result = await importing.mutateAsync({ csv: text, dry_run: true, ...(mapping ? { columns: mapping } : {}) });
      setPlan(result);
      setColumns(result.columns);
    } catch (e) {
      setPlan(null);
      setProblem(errorText(e));
    }
  };

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setPlan(null);
    setDone(null);
    setColumns(undefined);
    if (!chosen) return setCsv(null);
    const text = await chosen.text();
    setCsv(text);
    await dryRun(text, undefined);
  };

  const run = async () => {
    if (!csv || !plan) return;
    setProblem(null);
    try {
      const result = await importing.mutateAsync({ csv, dry_run: false, ...(columns ? { columns } : {}) });
      setDone(result);
      notifications.show({ color: 'teal', message: t.done(result.lines.filter((l) => l.outcome === 'new').length) });
    } catch (e) {
      setProblem(errorText(e));
    }
  };

  const shown = done ?? plan;
  return (
    <Stack gap="md" data-testid="customer-import">
      <Text size="sm" c="dimmed">
        {t.intro}
      </Text>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <FileInput
        label={t.file}
        placeholder={t.filePlaceholder}
        accept=".csv,text/csv"
        value={file}
        onChange={(chosen) => void choose(chosen)}
        leftSection={<IconFileImport size={16} />}
        clearable
        maw={480}
        disabled={importing.isPending}
      />
      {plan && !done && (
        <Paper withBorder p="md" radius="md">
          <Title order={4}>{t.columnsHeading}</Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t.columnsHint}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {customerImportFields.map((field) => (
              <Select
                key={field}
                label={t.fields[field]}
                data={[{ value: '', label: t.noColumn }, ...plan.header.map((h, i) => ({ value: String(i), label: t.column(i, h) }))]}
                value={columns?.[field] === undefined ? '' : String(columns[field])}
                allowDeselect={false}
                onChange={(value) => {
                  const next: Columns = { ...columns };
                  if (value === null || value === '') delete next[field];
                  else next[field] = Number(value);
                  setColumns(next);
                  if (csv) void dryRun(csv, next);
                }}
                disabled={importing.isPending}
              />
            ))}
          </SimpleGrid>
        </Paper>
      )}
      {shown && (
        <Stack gap="sm">
          <Text fw={600} data-testid="customer-import-counts">
            {t.counts(shown.counts)}
          </Text>
          <Table.ScrollContainer minWidth={640}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t.line}</Table.Th>
                  <Table.Th>{t.outcome}</Table.Th>
                  <Table.Th>{t.person}</Table.Th>
                  <Table.Th>{t.why}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.lines.slice(0, shownLines).map((l) => (
                  <Table.Tr key={l.line} data-testid="customer-import-line">
                    <Table.Td>{l.line}</Table.Td>
                    {/* Wide enough for 'Ya es cliente' whole when the table scrolls on a phone. */}
                    <Table.Td miw={140}>
                      <Badge color={outcomeColor[l.outcome]} variant="light">
                        {t.outcomes[l.outcome]}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {[l.name, l.last_name].filter(Boolean).join(' ')}
                      {l.email && (
                        <Text size="xs" c="dimmed">
                          {l.email}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{l.reasons.join(' ')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {shown.lines.length > shownLines && (
            <Text size="sm" c="dimmed">
              {t.more(shown.lines.length - shownLines)}
            </Text>
          )}
          <Group>
            {!done ? (
              <Button onClick={() => void run()} loading={importing.isPending} disabled={shown.counts.new === 0}>
                {t.run(shown.counts.new)}
              </Button>
            ) : (
              <Button variant="default" onClick={() => void choose(null)}>
                {t.again}
              </Button>
            )}
            <Button variant="light" onClick={() => download(shown)}>
              {t.download}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
