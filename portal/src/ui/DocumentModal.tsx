import { lazy, Suspense } from 'react';
import { Loader, Modal, Text } from '@mantine/core';
import { texts } from '@estudio/core';

/** The studio's HTML with its sanitizer (DOMPurify, 11 KiB gzip): loaded when a document is first opened (decision 036). */
const SafeHtml = lazy(() => import('./SafeHtml.tsx').then((module) => ({ default: module.SafeHtml })));

export interface StudioDocument {
  title: string;
  content: string | null;
}

/** Spec: documents are shown in a large modal. Page content is sanitized HTML. */
export function DocumentModal({ document, onClose }: { document: StudioDocument | null; onClose: () => void }) {
  return (
    <Modal opened={document !== null} onClose={onClose} title={document?.title} size="xl" centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      {document?.content ? (
        <Suspense fallback={<Loader size="sm" aria-label={texts.shell.loading} />}>
          <SafeHtml html={document.content} />
        </Suspense>
      ) : (
        <Text c="dimmed">{texts.pages.noContent}</Text>
      )}
    </Modal>
  );
}
