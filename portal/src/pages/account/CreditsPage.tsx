import { Alert, Badge, Button, EmptyState, Skeleton, Table, Text } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';
import { Link } from 'react-router';
import { allowedTimes, formatDate, isOn, isUnlimitedCredit, texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useStudioTimeZone } from '../../booking/time.ts';
import { NotFound } from '../NotFound.tsx';
import { AccountPageFrame } from './AccountPageFrame.tsx';

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
  let content: React.ReactNode;
  if (credits.isError) content = <Alert color="red" variant="light" title={errorMessage(credits.error)} />;
  else if (!credits.data) content = <Skeleton h={120} radius="md" />;
  else if (rows.length === 0) content = <EmptyState py={40} variant="light" icon={<IconTicket size={32} stroke={1.5} />} title={texts.credits.empty} />;
  else
    content = (
      <Table.ScrollContainer minWidth={420}>
        <Table verticalSpacing="sm" striped>
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
                {withTypes && <Table.Td>{c.class_types?.name ?? texts.credits.anyClassType}</Table.Td>}
                {withTimes && <Table.Td>{allowedTimes(c.allowed_times)?.join(', ') ?? texts.credits.anyTime}</Table.Td>}
                <Table.Td>
                  {isUnlimitedCredit(c) ? (
                    <Badge variant="light" size="lg" radius="sm">
                      {texts.credits.unlimited}
                    </Badge>
                  ) : (
                    <Text fw={700}>{c.available_classes.toLocaleString('es-MX')}</Text>
                  )}
                </Table.Td>
                <Table.Td>{c.expiration_date ? formatDate(c.expiration_date, tz) : texts.credits.noExpiry}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
