import { Alert, Button, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { penaltyDetailText, texts } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useStudioTimeZone } from '../time.ts';
import type { PenaltyOutput, SingleClassOutput } from '../types.ts';
import { ClassSummary } from '../ClassSummary.tsx';

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
export function CompleteInfoModal({ opened, onClose }: Props) {
  const navigate = useNavigate();
  return (
    <Modal opened={opened} onClose={onClose} title={texts.blocking.completeInfoTitle} {...modalProps}>
      <Stack gap="lg">
        <Text>{texts.blocking.completeInfoText}</Text>
        <Button
          fullWidth
          onClick={() => {
            onClose();
            navigate('/mystudio/informacion');
          }}
        >
          {texts.blocking.completeInfoButton}
        </Button>
      </Stack>
    </Modal>
  );
}
