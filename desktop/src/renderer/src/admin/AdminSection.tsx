import { Alert, Stack, Title } from '@mantine/core';
import { IconCloudOff, IconMailOff } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import type { ReactNode } from 'react';
import { useDeskOnline } from '../saved.ts';
import { api } from './api.ts';
import { adminSections, type AdminSectionKey } from './sections.ts';
import { AnnouncementsScreen, CategoriesScreen, ClassTypesScreen, InstructorsScreen, LocationsScreen, PagesScreen } from './catalogue/screens.tsx';
import { ActivityScreen } from './activity/ActivityScreen.tsx';
import { CustomersAdminScreen } from './customers/CustomersAdminScreen.tsx';
import { DiscountsScreen } from './discounts/DiscountsScreen.tsx';
import { OutboxScreen } from './outbox/OutboxScreen.tsx';
import { PackagesScreen } from './packages/PackagesScreen.tsx';
import { PrivacyRequestsScreen } from './privacy/PrivacyRequestsScreen.tsx';
import { CustomerImportScreen } from './import/CustomerImportScreen.tsx';
import { ImportInvitationsCard } from './import/ImportInvitationsCard.tsx';
import { ProductsScreen } from './products/ProductsScreen.tsx';
import { ReportsScreen } from './reports/ReportsScreen.tsx';
import { ScheduleScreen } from './schedule/ScheduleScreen.tsx';
import { SettingsScreen } from './settings/SettingsScreen.tsx';
import type { SettingsTabKey } from './settings/fields.ts';
import { FirstStepsScreen } from './setup/FirstStepsScreen.tsx';
import { VideosScreen } from './videos/VideosScreen.tsx';

/** Opens another section of the console (Primeros pasos sends the owner to where each step is done), and a tab of Configuración. */
export type OpenSection = (section: AdminSectionKey, tab?: SettingsTabKey) => void;

/** Each section's screen; every one works online against the server. */
const screens: Record<AdminSectionKey, (open: OpenSection, tab: SettingsTabKey | undefined) => ReactNode> = {
  firstSteps: (open) => <FirstStepsScreen onOpen={open} />,
  packages: () => <PackagesScreen />,
  discounts: () => <DiscountsScreen />,
  products: () => <ProductsScreen />,
  locations: () => <LocationsScreen />,
  classTypes: () => <ClassTypesScreen />,
  categories: () => <CategoriesScreen />,
  instructors: () => <InstructorsScreen />,
  announcements: () => <AnnouncementsScreen />,
  pages: () => <PagesScreen />,
  videos: () => <VideosScreen />,
  schedule: () => <ScheduleScreen />,
  customers: () => <CustomersAdminScreen />,
  customerImport: () => (
    <>
      <CustomerImportScreen />
      <ImportInvitationsCard />
    </>
  ),
  reports: () => <ReportsScreen />,
  activity: () => <ActivityScreen />,
  outbox: () => <OutboxScreen />,
  privacy: () => <PrivacyRequestsScreen />,
  settings: (_open, tab) => <SettingsScreen key={tab} initialTab={tab} />,
};

export function AdminSection({ section, tab, onOpen = () => {} }: { section: AdminSectionKey; tab?: SettingsTabKey | undefined; onOpen?: OpenSection }) {
  // The console reads and writes the server directly (not the replica): say so while the desk is offline.
  const online = useDeskOnline();
  // Decision 079: while the studio sends nothing, the owner reads so on every screen of the console.
  const channels = api.messaging.channels.useQuery(undefined, { staleTime: 60_000 });
  const silent = channels.data && !channels.data.email && !channels.data.whatsapp;
  const found = adminSections.find((s) => s.key === section);
  if (!found) return null;
  return (
    <Stack gap="md" data-testid={`admin-${section}`}>
      <Title order={2}>{found.label}</Title>
      {!online && (
        <Alert color="orange" icon={<IconCloudOff size={18} />}>
          {texts.adminConsole.onlineOnly}
        </Alert>
      )}
      {silent && (
        <Alert color="yellow" icon={<IconMailOff size={18} />} data-testid="messages-not-configured">
          {texts.adminCommerce.messagesNotConfigured}
        </Alert>
      )}
      {screens[section](onOpen, tab)}
    </Stack>
  );
}
