import { Alert, Badge, Box, Button, EmptyState, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';
import { Link } from 'react-router';
import { allowedTimes, formatDate, isOn, isUnlimitedCredit, texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useStudioTimeZone } from '../../booking/time.ts';
import { NotFound } from '../NotFound.tsx';
import { AccountPageFrame } from './AccountPageFrame.tsx';
import { RecordCard } from './RecordCard.tsx';

/**
 * /mystudio/creditos (Mis Créditos), only when allow_restricted_class_types is
 * on: the customer's usable credits, with the class type and times they are
 * restricted to when those settings are on.
 */
export default function CreditsPage() {
  const config = useAppConfig();
  const tz = useStudioTimeZone();
  const withTypes = isOn(config.allow_restricted_class_types);
  const withTimes = isOn(config.allow_restricted_times);
  const credits = trpc.credits.list.useQuery(undefined, { enabled: withTypes });
  if (!withTypes) return <NotFound home="/mystudio" fullHeight={false} />;

  const rows = credits.data?.available_classes ?? [];
  type Credit = (typeof rows)[number];
  const classType = (c: Credit) => c.class_types?.name ?? texts.credits.anyClassType;
  const times = (c: Credit) => allowedTimes(c.allowed_times)?.join(', ') ?? texts.credits.anyTime;
  const expires = (c: Credit) => (c.expiration_date ? formatDate(c.expiration_date, tz) : texts.credits.noExpiry);
  const amount = (c: Credit) =>
    isUnlimitedCredit(c) ? (
      <Badge variant="light" size="lg" radius="sm">
        {texts.credits.unlimited}
      </Badge>
    ) : (
      <Text fw={700} span>
        {c.available_classes.toLocaleString('es-MX')}
      </Text>
    );
  let content: React.ReactNode;
  if (credits.isError) content = <Alert color="red" variant="light" title={errorMessage(credits.error)} />;
  else if (!credits.data) content = <Skeleton h={120} radius="md" />;
  else if (rows.length === 0) content = <EmptyState py={40} variant="light" icon={<IconTicket size={32} stroke={1.5} />} title={texts.credits.empty} />;
  else
    content = (
      <>
        <Box visibleFrom="sm">
          <Table verticalSpacing="sm" striped aria-label={texts.credits.heading}>
            <Table.Thead>
              <Table.Tr>
                {withTypes && <Table.Th>{texts.credits.columnClassType}</Table.Th>}
                {withTimes && <Table.Th>{texts.credits.columnTimes}</Table.Th>}
                <Table.Th>{texts.credits.columnCredits}</Table.Th>
                <Table.Th>{texts.credits.columnExpires}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.available_class_id}>
                  {withTypes && <Table.Td>{classType(c)}</Table.Td>}
                  {withTimes && <Table.Td>{times(c)}</Table.Td>}
                  <Table.Td>{amount(c)}</Table.Td>
                  <Table.Td>{expires(c)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
        {/* Phones: one card per credit, every label whole (the table cut 'Expiran en' to 'Expir…'). */}
        <Stack hiddenFrom="sm" gap="sm">
          {rows.map((c) => (
            <RecordCard
              key={c.available_class_id}
              testId="credit-card"
              facts={[
                ...(withTypes ? [[texts.credits.columnClassType, classType(c)] as [string, string]] : []),
                ...(withTimes ? [[texts.credits.columnTimes, times(c)] as [string, string]] : []),
                [texts.credits.columnCredits, amount(c)],
                [texts.credits.columnExpires, expires(c)],
              ]}
            />
          ))}
        </Stack>
      </>
    );

  return (
    <AccountPageFrame
      title={texts.credits.heading}
      size="md"
      actions={
        <Button component={Link} to={config.class_packages_path || '/mystudio/paquetes'}>
          {texts.credits.addCredits}
        </Button>
      }
    >
      {content}
    </AccountPageFrame>
  );
}
