import { describe, expect, it } from 'vitest';
import { appConfigKeys, appConfigRules } from '@estudio/core';
import { labelOf, settingsEditedElsewhere, settingsFormKeys, settingsTabs } from '../src/renderer/src/admin/settings/fields.ts';

describe("the console's Configuración covers the app configuration", () => {
  it('every setting the spec names is edited once: in the form or in the panel it already had', () => {
    const form = new Set(settingsFormKeys);
    expect(settingsFormKeys.length, 'a setting in two places of the form').toBe(form.size);
    for (const key of settingsEditedElsewhere) expect(form.has(key), `${key} is edited by its own panel`).toBe(false);
    const covered = new Set([...settingsFormKeys, ...settingsEditedElsewhere]);
    expect(appConfigKeys.filter((key) => !covered.has(key))).toEqual([]);
  });

  it('the six tabs an owner looks for, and every field has a Spanish name (core\'s, when the server checks it)', () => {
    expect(settingsTabs.map((t) => t.label)).toEqual(['Marca', 'Reservas', 'Pagos', 'Facturación', 'Sitio', 'Notificaciones']);
    for (const tab of settingsTabs) {
      for (const field of tab.groups.flatMap((g) => g.fields)) {
        const label = labelOf(field);
        expect(label, field.key).not.toBe(field.key);
        if (appConfigRules[field.key]) expect(label).toBe(appConfigRules[field.key]?.label);
      }
    }
  });
});
