import { lazy, Suspense, useState } from 'react';
import { Button, Checkbox, Group, Modal, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { useLocation } from 'react-router';
import { isProfileComplete, texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { showError } from '../../ui/alerts.ts';
import { SafeHtml } from '../../ui/SafeHtml.tsx';
import type { Customer } from '../../session/SessionProvider.tsx';

const blocking = { withCloseButton: false, closeOnClickOutside: false, closeOnEscape: false, centered: true } as const;

interface PendingPage {
  page_id: number;
  title: string;
  content: string | null;
  version: number;
}

/**
 * Spec terms panel: one required page at a time, content in a box of at most 500px. A page she accepted in an
 * earlier version says it changed (decision 122); the version she read is sent, so a newer one is never accepted unread.
 */
function TermsPanel({ page, updated }: { page: PendingPage; updated: boolean }) {
  const utils = trpc.useUtils();
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string>();
  const accept = trpc.acceptedPages.accept.useMutation({
    onSuccess: async () => {
      setChecked(false);
      await utils.acceptedPages.list.invalidate();
    },
    onError: async (failure) => {
      showError(errorMessage(failure));
      // A version published while she read: the panel shows the new text.
      await utils.pages.list.invalidate();
    },
  });

  const submit = () => {
    if (!checked) {
      setError(texts.blocking.mustAccept(page.title));
      return;
    }
    setError(undefined);
    accept.mutate({ page_id: page.page_id, version: page.version });
  };

  return (
    <Modal opened onClose={() => undefined} title={updated ? texts.blocking.updatedTitle(page.title) : page.title} size="xl" {...blocking}>
      <Stack gap="md">
        {updated && <Text fw={500}>{texts.blocking.updatedIntro}</Text>}
        <ScrollArea.Autosize mah={500} type="auto" offsetScrollbars>
          {page.content ? (
            <SafeHtml html={page.content} />
          ) : (
            <Text c="dimmed">{texts.pages.noContent}</Text>
          )}
        </ScrollArea.Autosize>
        <Checkbox
          checked={checked}
          onChange={(e) => {
            setChecked(e.currentTarget.checked);
            if (e.currentTarget.checked) setError(undefined);
          }}
          label={`${texts.blocking.accept} ${page.title}`}
          error={error}
        />
        <Group justify="flex-end">
          <Button onClick={submit} loading={accept.isPending}>
            {texts.blocking.acceptButton}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The form's inputs (selects, dates, files) load only for a customer who has something to complete. */
const CompleteInfoForm = lazy(() => import('./profile/CompleteInfoForm.tsx').then((m) => ({ default: m.CompleteInfoForm })));

/** Spec: 'Completar Información', with what is missing asked in place (decision 087); it closes once nothing is. */
function CompleteInfoModal({ customer }: { customer: Customer }) {
  return (
    <Modal opened onClose={() => undefined} title={texts.blocking.completeInfoTitle} {...blocking}>
      <Suspense fallback={<Skeleton h={160} radius="md" />}>
        <CompleteInfoForm customer={customer} />
      </Suspense>
    </Modal>
  );
}

/**
 * Spec: a customer with unaccepted required pages, or with missing profile
 * fields, is blocked by modals; the terms come first. The profile modal stays
 * away from the profile screen itself so the customer can complete it there.
 * The studio's questions (decision 087) are asked before booking: on the
 * calendar, where she books (and by the reserve flow, wherever she taps a
 * class), never over Mis Compras or the video library of someone who does
 * not book.
 */
export function BlockingModals({ customer }: { customer: Customer }) {
  const { pathname } = useLocation();
  const pages = trpc.pages.list.useQuery(undefined, { staleTime: 5 * 60_000 });
  const accepted = trpc.acceptedPages.list.useQuery(undefined, { staleTime: 60_000 });

  if (!pages.data || !accepted.data) return null;
  // Accepted means at the page's current version: a new version is pending again (decision 122).
  const acceptedVersions = new Set(accepted.data.accepted_pages.map((row) => `${row.page_id}:${row.version}`));
  const acceptedBefore = new Set(accepted.data.accepted_pages.map((row) => row.page_id));
  const pending = pages.data.pages.find((page) => page.required && !acceptedVersions.has(`${page.page_id}:${page.version}`));
  if (pending) return <TermsPanel key={`${pending.page_id}:${pending.version}`} page={pending} updated={acceptedBefore.has(pending.page_id)} />;
  const profileMissing = !isProfileComplete(customer) && !pathname.startsWith('/mystudio/informacion');
  const questionsPending = (customer.pending_fields?.length ?? 0) > 0 && pathname.replace(/\/+$/, '') === '/mystudio';
  if (profileMissing || questionsPending) return <CompleteInfoModal customer={customer} />;
  return null;
}
