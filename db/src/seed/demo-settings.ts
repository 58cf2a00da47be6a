import type { AppConfigKey } from '@estudio/core';

/**
 * What only the demo studio says about itself, written by its seed over a new studio's defaults: its name, logo and
 * pictures (the portal's /demo files), landing texts, contact, banner, bank details for transfers, and the SAT's
 * test taxpayer (the RFC PAC sandboxes stamp with). A studio started without the demo has none of it.
 */
export const demoStudioSettings = {
  business_name: 'Estudio Demo',
  tagline: 'Muévete, respira, vuelve a ti.',
  navbar_logo: '/demo/logo.svg',
  favicon: '/demo/favicon.svg',
  bg_login: '/demo/bg-login.jpg',
  social_media_image: '/demo/social.jpg',
  email: 'hola@estudio.demo',
  whatsapp: '5512345678',
  facebook: 'https://facebook.com/estudiodemo',
  instagram: 'https://instagram.com/estudiodemo',
  tiktok: 'https://tiktok.com/@estudiodemo',
  location: 'Av. Álvaro Obregón 120, Roma Norte, Ciudad de México',
  powered_by_url: 'https://estudio.demo',
  powered_by_name: 'Estudio Demo',
  banner_enabled: 'true',
  banner_text: '¡Nuevo! Clases de Barre los sábados. Reserva tu lugar.',
  bank_name: 'BBVA México',
  bank_clabe: '012180001234567899',
  bank_beneficiary: 'Estudio Demo S.A. de C.V.',
  hero_title: 'Estudio Demo',
  hero_text: 'Clases de yoga, pilates, indoor cycling y barre en la Roma y en Coyoacán.',
  hero_image: '/demo/hero.jpg',
  about_text: 'Somos un estudio boutique fundado en 2019 en la Ciudad de México. Grupos pequeños, coaches certificados y un ambiente donde todos son bienvenidos.',
  about_image: '/demo/about.jpg',
  mission_text: 'Acompañarte a moverte con intención, todos los días, con clases que se adaptan a ti.',
  mission_image: '/demo/mission.jpg',
  fiscal_rfc: 'EKU9003173C9',
  fiscal_legal_name: 'ESCUELA KEMPER URGATE',
  fiscal_regime: '601',
  fiscal_postcode: '06700',
} as const satisfies Partial<Record<AppConfigKey, string>>;
