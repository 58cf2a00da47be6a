import { Modal, Text, Typography } from '@mantine/core';
import { texts } from '@estudio/core';

export interface StudioDocument {
  title: string;
  content: string | null;
}

/** Spec: documents are shown in a large modal. Page content is the studio's own HTML. */
export function DocumentModal({ document, onClose }: { document: StudioDocument | null; onClose: () => void }) {
  return (
    <Modal opened={document !== null} onClose={onClose} title={document?.title} size="xl" centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      {document?.content ? (
        <Typography>
          <div dangerouslySetInnerHTML={{ __html: document.content }} />
        </Typography>
      ) : (
        <Text c="dimmed">{texts.pages.noContent}</Text>
      )}
    </Modal>
  );
}
