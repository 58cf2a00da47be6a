import { gridSizes } from '../ui/image-sources.ts';

/** The shop's grid of package cards (/paquetes and the landing): one card a row on phones, two from xs, three from md. */
export const packageGrid = { cols: { base: 1, xs: 2, md: 3 }, spacing: 'lg' } as const;

/** The width of a card's picture in that grid (it spans the card). */
export const packageCardSizes = gridSizes(packageGrid.cols, packageGrid.spacing);

/** The checkout's package picture: half the large container from md (beside the forms), inside a padded paper. */
export const checkoutPackageSizes = gridSizes({ base: 1, md: 2 }, { base: 'md', md: 'xl' }, { inset: 32 });
