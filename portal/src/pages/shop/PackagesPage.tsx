import { PackagesView } from '../../shop/PackagesView.tsx';
import { usePackagesTitle } from './usePackagesTitle.ts';

/** /mystudio/paquetes (inside the account layout). */
export default function PackagesPage() {
  usePackagesTitle();
  return <PackagesView />;
}
