import { PackagesView } from '../../shop/PackagesView.tsx';

/** /mystudio/paquetes (inside the account layout). */
export default function PackagesPage() {
  return <PackagesView />;
}
