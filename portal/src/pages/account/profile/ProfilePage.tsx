import { Container, Stack, Title } from '@mantine/core';
import { texts } from '@estudio/core';
import { useSession } from '../../../session/SessionProvider.tsx';
import { PersonalCard } from './PersonalCard.tsx';
import { AnswersCard } from './AnswersCard.tsx';
import { AddressCard } from './AddressCard.tsx';
import { AccountCard } from './AccountCard.tsx';
import { MessagesCard } from './MessagesCard.tsx';
import { PersonalDataCard } from './PersonalDataCard.tsx';
import { PrivacyRequestsCard } from './PrivacyRequestsCard.tsx';
import { TaxProfileCard } from './TaxProfileCard.tsx';
import { ProgressCard } from './ProgressCard.tsx';
import { usePageTitle } from '../../../ui/usePageTitle.ts';

/** /mystudio/informacion (Mi Información): profile, progress, billing address, messages and the calendar feed, her copy of her data and her requests about it, and account. */
export default function ProfilePage() {
  const { customer } = useSession();
  usePageTitle(texts.profile.heading);
  if (!customer) return null;
  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {texts.profile.heading}
        </Title>
        <PersonalCard customer={customer} />
        <ProgressCard />
        <AnswersCard customer={customer} />
        <AddressCard customer={customer} />
        <TaxProfileCard />
        <MessagesCard />
        <PersonalDataCard />
        <PrivacyRequestsCard />
        <AccountCard customer={customer} />
      </Stack>
    </Container>
  );
}
