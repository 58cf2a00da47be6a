import { PackagesView } from '../../shop/PackagesView.tsx';
import { PublicLayout } from '../public/PublicLayout.tsx';

/** /paquetes on the public site. */
export default function PublicPackagesPage() {
  return (
    <PublicLayout>
      <PackagesView />
    </PublicLayout>
  );
}
