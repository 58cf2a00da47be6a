import { createContext, useContext } from 'react';
import type { AppConfigMap } from '@estudio/core';

export const AppConfigContext = createContext<AppConfigMap | null>(null);

/** The studio's app configuration; the shell renders routes only once it is loaded. */
export function useAppConfig(): AppConfigMap {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error('useAppConfig outside AppConfigContext');
  return config;
}
