import { lazy, Suspense } from 'react';
import { Alert, Button, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { penaltyDetailText, texts } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useStudioTimeZone } from '../time.ts';
import type { PenaltyOutput, SingleClassOutput } from '../types.ts';
import { ClassSummary } from '../ClassSummary.tsx';
import { useSession } from '../../session/SessionProvider.tsx';

const CompleteInfoForm = lazy(() => import('../../pages/account/profile/CompleteInfoForm.tsx').then((m) => ({ default: m.CompleteInfoForm })));

interface Props {
  opened: boolean;
  onClose: () => void;
}

const modalProps = { centered: true, closeButtonProps: { 'aria-label': texts.shell.close } } as const;

/** Spec: no credits left, with a link to the packages. */
export function NoCreditsModal({ opened, onClose }: Props) {
  const config = useAppConfig();
  const packagesName = config.class_packages_name || texts.nav.packagesDefault;
  return (
    <Modal opened={opened} onClose={onClose} title={texts.booking.noCreditsTitle} {...modalProps}>
      <Stack gap="lg">
        <Text>{texts.booking.noCredits}</Text>
        <Button component={Link} to={config.class_packages_path || '/mystudio/paquetes'} fullWidth onClick={onClose}>
          {texts.booking.goToPackages(packagesName)}
        </Button>
      </Stack>
    </Modal>
  );
}

/** A package-only class, before any booking form: what it is and the way to its package's checkout. */
export function PackageOnlyModal({ opened, onClose, singleClass }: Props & { singleClass: SingleClassOutput }) {
  return (
    <Modal opened={opened} onClose={onClose} title={texts.booking.packageOnlyTitle} {...modalProps}>
      <Stack gap="lg">
        <ClassSummary singleClass={singleClass} />
        <Text>{texts.booking.packageOnlyText}</Text>
        {singleClass.class_package_id != null && (
          <Button component={Link} to={`/checkout/${singleClass.class_package_id}`} fullWidth onClick={onClose}>
            {texts.booking.packageOnlyButton}
          </Button>
        )}
      </Stack>
    </Modal>
  );
}

/** Spec: an unlimited member blocked after consecutive no-shows, with the date booking resumes. */
export function PenaltyModal({ opened, onClose, penalty }: Props & { penalty: PenaltyOutput }) {
  const tz = useStudioTimeZone();
  return (
    <Modal opened={opened} onClose={onClose} title={texts.booking.penaltyTitle} {...modalProps}>
      <Stack gap="lg">
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />}>
          <Text fw={600} size="sm">
            {texts.booking.penalized}
          </Text>
        </Alert>
        <Text size="sm">{penaltyDetailText(penalty, tz)}</Text>
        <Button variant="default" fullWidth onClick={onClose}>
          {texts.shell.close}
        </Button>
      </Stack>
    </Modal>
  );
}

/** Outside the account area the blocking modal does not run; booking still asks for the missing profile first. */
/**
 * Spec: a customer with missing profile fields completes them before booking; what is missing is asked here
 * (decision 087), and once saved the class she tapped opens again (`onCompleted`).
 */
export function CompleteInfoModal({ opened, onClose, onCompleted }: Props & { onCompleted: () => void }) {
  const { customer } = useSession();
  return (
    <Modal opened={opened} onClose={onClose} title={texts.blocking.completeInfoTitle} {...modalProps}>
      {customer && (
        <Suspense fallback={<Skeleton h={160} radius="md" />}>
          <CompleteInfoForm customer={customer} onSaved={onCompleted} />
        </Suspense>
      )}
    </Modal>
  );
}
