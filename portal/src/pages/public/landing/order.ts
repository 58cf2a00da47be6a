import { isOn, type AppConfigMap } from '@estudio/core';

/** The landing's sections by their config prefix (`<prefix>_enabled`, `<prefix>_order`), in the spec's order. */
export const landingSectionKeys = ['hero', 'about', 'mission', 'class_types', 'coaches', 'packages', 'announcements', 'schedule'] as const;
export type LandingSectionKey = (typeof landingSectionKeys)[number];

/** The enabled sections, sorted by their configured order (ties and unreadable orders keep the spec's order). */
export function landingSections(config: Pick<AppConfigMap, `${LandingSectionKey}_enabled` | `${LandingSectionKey}_order`>): LandingSectionKey[] {
  const order = (key: LandingSectionKey) => {
    const raw = config[`${key}_order`];
    const value = raw.trim() === '' ? Number.NaN : Number(raw);
    return Number.isFinite(value) ? value : Number.MAX_SAFE_INTEGER;
  };
  return landingSectionKeys.filter((key) => isOn(config[`${key}_enabled`])).sort((a, b) => order(a) - order(b));
}
