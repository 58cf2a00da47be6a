import {
  IconActivity,
  IconBottle,
  IconCalendarWeek,
  IconCategory,
  IconChartBar,
  IconDiscount2,
  IconFileImport,
  IconFileText,
  IconMail,
  IconMapPin,
  IconPackage,
  IconRocket,
  IconSettings,
  IconShieldLock,
  IconSpeakerphone,
  IconUsers,
  IconUserStar,
  IconVideo,
  IconYoga,
  type Icon,
} from '@tabler/icons-react';
import { activityTexts, studioSetupTexts, texts } from '@estudio/core';

const nav = texts.adminConsole.nav;

/**
 * The console's sections in the order of the navigation. Only the names and
 * icons live here: the screens (charts, date pickers) load on an admin's
 * first visit to a section, so staff never download them.
 */
export const adminSections = [
  // A new studio's checklist, first while it is not published (decision 129).
  { key: 'firstSteps', label: studioSetupTexts.nav, icon: IconRocket },
  { key: 'packages', label: nav.packages, icon: IconPackage },
  { key: 'discounts', label: nav.discounts, icon: IconDiscount2 },
  { key: 'products', label: nav.products, icon: IconBottle },
  { key: 'locations', label: nav.locations, icon: IconMapPin },
  { key: 'classTypes', label: nav.classTypes, icon: IconYoga },
  { key: 'categories', label: nav.categories, icon: IconCategory },
  { key: 'instructors', label: nav.instructors, icon: IconUserStar },
  { key: 'announcements', label: nav.announcements, icon: IconSpeakerphone },
  { key: 'pages', label: nav.pages, icon: IconFileText },
  { key: 'videos', label: nav.videos, icon: IconVideo },
  { key: 'schedule', label: nav.schedule, icon: IconCalendarWeek },
  { key: 'customers', label: nav.customers, icon: IconUsers },
  { key: 'customerImport', label: nav.customerImport, icon: IconFileImport },
  { key: 'reports', label: nav.reports, icon: IconChartBar },
  { key: 'activity', label: activityTexts.nav, icon: IconActivity },
  { key: 'outbox', label: nav.outbox, icon: IconMail },
  { key: 'privacy', label: nav.privacy, icon: IconShieldLock },
  { key: 'settings', label: nav.settings, icon: IconSettings },
] as const satisfies readonly { key: string; label: string; icon: Icon }[];

export type AdminSectionKey = (typeof adminSections)[number]['key'];
