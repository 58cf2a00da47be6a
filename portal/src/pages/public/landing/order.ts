/** The landing's sections and their order: one rule in core, read by the portal and by the console's preview (decision 035). */
export { landingSectionKeys, landingSections, type LandingSectionKey } from '@estudio/core';
