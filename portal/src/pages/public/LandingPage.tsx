import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { texts, type AppConfigMap } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { PublicLayout } from './PublicLayout.tsx';
import { landingSections, type LandingSectionKey } from './landing/order.ts';
import { AnnouncementsSection, ClassTypesSection, CoachesSection, HeroSection, PackagesSection, ScheduleSection, TextSection } from './landing/sections.tsx';

function renderSection(key: LandingSectionKey, config: AppConfigMap): ReactNode {
  switch (key) {
    case 'hero':
      return <HeroSection config={config} />;
    case 'about':
      return <TextSection name="about" id="nosotros" title={config.about_title || texts.nav.publicUs} text={config.about_text} image={config.about_image} />;
    case 'mission':
      return <TextSection name="mission" title={config.mission_title} text={config.mission_text} image={config.mission_image} reverse />;
    case 'class_types':
      return <ClassTypesSection />;
    case 'coaches':
      return <CoachesSection />;
    case 'packages':
      return <PackagesSection />;
    case 'announcements':
      return <AnnouncementsSection />;
    case 'schedule':
      return <ScheduleSection />;
  }
}

/**
 * '/': the public landing. The app shell renders routes only once the app
 * configuration is loaded, so this page never shows with the defaults first.
 */
export default function LandingPage() {
  const config = useAppConfig();
  const { hash } = useLocation();

  // The navbar's 'Nosotros' is '/#nosotros'; the router does not scroll to hashes by itself.
  useEffect(() => {
    if (!hash) return;
    const timer = window.setTimeout(() => document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ behavior: 'smooth' }), 50);
    return () => window.clearTimeout(timer);
  }, [hash]);

  return (
    <PublicLayout startsOnDemand>
      {landingSections(config).map((key) => (
        <div key={key}>{renderSection(key, config)}</div>
      ))}
    </PublicLayout>
  );
}
