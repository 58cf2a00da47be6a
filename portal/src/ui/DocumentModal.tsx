import { Modal, Text } from '@mantine/core';
import { texts } from '@estudio/core';
import { SafeHtml } from './SafeHtml.tsx';

export interface StudioDocument {
  title: string;
  content: string | null;
}

/** Spec: documents are shown in a large modal. Page content is sanitized HTML. */
export function DocumentModal({ document, onClose }: { document: StudioDocument | null; onClose: () => void }) {
  return (
    <Modal opened={document !== null} onClose={onClose} title={document?.title} size="xl" centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      {document?.content ? (
        <SafeHtml html={document.content} />
      ) : (
        <Text c="dimmed">{texts.pages.noContent}</Text>
      )}
    </Modal>
  );
}
