import { PackagesView } from '../../shop/PackagesView.tsx';
import { PublicLayout } from '../public/PublicLayout.tsx';
import { usePackagesTitle } from './usePackagesTitle.ts';

/** /paquetes on the public site. */
export default function PublicPackagesPage() {
  usePackagesTitle();
  return (
    <PublicLayout>
      <PackagesView />
    </PublicLayout>
  );
}
