import { texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { SafeHtml } from '../../ui/SafeHtml.tsx';
import { PublicPageFrame } from './PublicPageFrame.tsx';

/** /preguntas-frecuentes: the title, plus the content of the page with that slug when one exists. */
export default function FaqPage() {
  const page = trpc.pages.bySlug.useQuery({ slug: 'preguntas-frecuentes' }, { retry: false, staleTime: 5 * 60_000 });
  const content = page.data?.page.content?.trim();
  return (
    <PublicPageFrame title={texts.landing.faq} size="md" loading={page.isPending}>
      {content ? <SafeHtml html={content} /> : null}
    </PublicPageFrame>
  );
}
