import { PackagesView } from '../../shop/PackagesView.tsx';
import { PublicLayout } from '../public/PublicLayout.tsx';
import { usePackagesTitle } from './usePackagesTitle.ts';

/**
 * /paquetes on the public site. Whole as the server sends it (every card leads to its checkout by a link), so a visitor
 * gets the app only when they reach for it (decision 054).
 */
export default function PublicPackagesPage() {
  usePackagesTitle();
  return (
    <PublicLayout startsOnDemand>
      <PackagesView />
    </PublicLayout>
  );
}
