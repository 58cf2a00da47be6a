import { texts } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { usePageTitle } from '../../ui/usePageTitle.ts';

/** The shop's tab title: the studio's own name for its packages link ('Membresías'), else 'Paquetes'. */
export function usePackagesTitle(): void {
  usePageTitle(useAppConfig().class_packages_name || texts.shop.heading);
}
