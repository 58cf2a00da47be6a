import { Anchor, Button, FileButton, Group, Input, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconMovie, IconUpload } from '@tabler/icons-react';
import { fileSizeText, ownVideoFilePath, texts, videoFileMaxBytes, videoFileTypes } from '@estudio/core';
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../../format.ts';
import { trpc } from '../../trpc.ts';

const t = texts.adminConsole;

/** Electron's preload hands the page the path of a picked file (decision 046); desk:web has no such bridge. */
declare global {
  interface Window {
    deskFiles?: { pathForFile: (file: File) => string };
  }
}

interface Stored {
  file_id: number;
  src: string;
  size: number;
  type: string;
}

/** Why a picked file is not sent ('' when it may go): the server checks the content and its own limit again. */
export function videoFileProblem(file: { name: string; type: string; size: number }): string {
  const byType = (videoFileTypes as readonly string[]).includes(file.type);
  const byName = /\.(mp4|webm|mov)$/i.test(file.name);
  if (!byType && !(file.type === '' && byName)) return t.videoType;
  if (file.size > videoFileMaxBytes) return t.videoTooLarge;
  return '';
}

/**
 * Electron: the upload from the disk is a subscription of the desk service's
 * (decision 046): progress events, then the stored file. Cancelling ends the
 * subscription, which aborts the upload in the main process.
 */
function sendFromDisk(
  client: ReturnType<typeof trpc.useUtils>['client'],
  path: string,
  onProgress: (sent: number, total: number) => void,
): { done: Promise<Stored>; cancel: () => void } {
  let cancel = () => undefined as void;
  const done = new Promise<Stored>((resolve, reject) => {
    const subscription = client.server.uploadVideoFromPath.subscribe(
      { path },
      {
        onData: (event) => {
          if ('stored' in event) resolve(event.stored);
          else onProgress(event.sent, event.total);
        },
        onError: reject,
        onStopped: () => reject(new Error(t.videoCancelled)),
        onComplete: () => reject(new Error(t.videoCancelled)),
      },
    );
    cancel = () => {
      subscription.unsubscribe();
      reject(new Error(t.videoCancelled));
    };
  });
  return { done, cancel: () => cancel() };
}

/**
 * desk:web: the file's bytes are posted as they are read from the disk by the
 * browser (XMLHttpRequest, for its upload progress) to the desk's
 * /upload/video, which streams them on to the studio's server.
 */
function sendThroughDeskWeb(file: File, onProgress: (sent: number) => void): { done: Promise<Stored>; cancel: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<Stored>((resolve, reject) => {
    xhr.open('POST', '/upload/video');
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('x-file-name', encodeURIComponent(file.name));
    xhr.upload.onprogress = (ev) => onProgress(ev.loaded);
    xhr.onload = () => {
      let body: { message?: string; file_id?: number } & Partial<Stored> = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON: the generic message below
      }
      if (xhr.status === 200 && body.src && body.file_id !== undefined) resolve(body as Stored);
      else reject(new Error(body.message ?? 'No fue posible guardar el video. Inténtalo más tarde.'));
    };
    xhr.onerror = () => reject(new Error('No fue posible enviar el video. Revisa la conexión e inténtalo de nuevo.'));
    xhr.onabort = () => reject(new Error(t.videoCancelled));
    xhr.send(file);
  });
  return { done, cancel: () => xhr.abort() };
}

/**
 * A video's source (decision 046): the link of a player or a file (as
 * before), and beside it 'Subir archivo de video' — choose or drop an MP4,
 * WEBM or MOV, see the upload's progress (percentage and bytes), cancel it,
 * then play what was sent. The stored file's address becomes the link. The
 * renderer never holds the token: the desk service streams the file to the
 * server (from the disk in Electron, from this page's request in desk:web).
 */
export function VideoUrlField({
  label,
  value,
  onChange,
  error,
  required,
  testId,
}: {
  label: string;
  value: string;
  onChange: (url: string) => void;
  error?: string | undefined;
  required?: boolean | undefined;
  testId: string;
}) {
  const utils = trpc.useUtils();
  const server = trpc.serverAddress.get.useQuery();
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [played, setPlayed] = useState<{ url: string; src: string; size: number } | null>(null);
  const cancelRef = useRef<(() => void) | null>(null);
  const [over, setOver] = useState(false);
  // The picked file plays from this computer (blob:): the window's policy plays no other origin's media.
  useEffect(() => () => (played ? URL.revokeObjectURL(played.url) : undefined), [played]);

  const take = async (file: File | null) => {
    if (!file) return;
    setProblem(null);
    const refused = videoFileProblem(file);
    if (refused) {
      setProblem(refused);
      return;
    }
    setProgress({ sent: 0, total: file.size });
    try {
      let stored: Stored;
      const path = window.deskFiles?.pathForFile(file);
      if (path) {
        // Electron: the main process reads the file from the disk and says how far it got; ending the subscription cancels it.
        const sending = sendFromDisk(utils.client, path, (sent, total) => setProgress({ sent, total }));
        cancelRef.current = sending.cancel;
        stored = await sending.done;
      } else {
        const sending = sendThroughDeskWeb(file, (sent) => setProgress({ sent, total: file.size }));
        cancelRef.current = sending.cancel;
        stored = await sending.done;
      }
      setProgress({ sent: file.size, total: file.size });
      setPlayed({ url: URL.createObjectURL(file), src: stored.src, size: stored.size });
      onChange(stored.src);
    } catch (err) {
      const reason = errorText(err);
      setProblem(reason === t.videoCancelled ? reason : t.videoRefused(reason));
    } finally {
      cancelRef.current = null;
      setProgress((p) => (p && p.sent >= p.total ? p : null));
    }
  };

  const uploading = progress !== null && progress.sent < progress.total;
  const percent = progress && progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  const ownFile = ownVideoFilePath.test(value) || (value !== '' && played?.src === value);
  const openUrl = ownFile && server.data?.url && value.startsWith('/') ? new URL(value, server.data.url).href : ownFile ? value : null;

  return (
    <Stack gap={6} style={{ gridColumn: '1 / -1' }}>
      <TextInput label={label} required={required} value={value} onChange={(ev) => onChange(ev.currentTarget.value)} error={error} data-testid={`${testId}-url`} />
      <Input.Wrapper error={problem} data-testid={`${testId}-video-upload`}>
        <Stack
          gap={6}
          p="sm"
          onDragOver={(ev) => {
            ev.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(ev) => {
            ev.preventDefault();
            setOver(false);
            if (!uploading) void take(ev.dataTransfer.files[0] ?? null);
          }}
          style={{ border: `1px dashed var(--mantine-color-${over ? 'teal-6' : 'gray-4'})`, borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <IconMovie size={24} color="var(--mantine-color-gray-6)" style={{ flexShrink: 0 }} />
            <Text size="sm" c="dimmed">
              {t.videoDrop}
            </Text>
          </Group>
          <Group gap="xs">
            <FileButton onChange={(file) => void take(file)} accept={[...videoFileTypes, '.mp4', '.webm', '.mov'].join(',')} disabled={uploading}>
              {(props) => (
                <Button {...props} size="xs" variant="light" leftSection={<IconUpload size={14} />} disabled={uploading} data-testid={`${testId}-video-choose`}>
                  {ownFile ? t.videoUploadReplace : t.videoUpload}
                </Button>
              )}
            </FileButton>
            {uploading && cancelRef.current && (
              <Button size="xs" variant="subtle" color="red" onClick={() => cancelRef.current?.()} data-testid={`${testId}-video-cancel`}>
                {t.videoCancel}
              </Button>
            )}
          </Group>
          {progress && (
            <Stack gap={2} data-testid={`${testId}-video-progress`}>
              <Progress value={percent} animated={uploading} aria-label={t.videoUpload} />
              <Text size="xs" c="dimmed" data-testid={`${testId}-video-progress-text`}>
                {t.videoProgress(percent, fileSizeText(progress.sent), fileSizeText(progress.total))}
              </Text>
            </Stack>
          )}
          {played && played.src === value && (
            <video src={played.url} controls preload="metadata" style={{ width: '100%', maxHeight: 240, background: '#000', borderRadius: 'var(--mantine-radius-sm)' }} data-testid={`${testId}-video-player`} />
          )}
          {ownFile && (
            <Group gap="xs" data-testid={`${testId}-video-stored`}>
              <Text size="xs" c="dimmed">
                {t.videoStored(played && played.src === value ? fileSizeText(played.size) : value.split('/').pop() ?? '')}
              </Text>
              {openUrl && (
                <Anchor size="xs" href={openUrl} target="_blank" rel="noreferrer">
                  {t.videoOpen}
                </Anchor>
              )}
            </Group>
          )}
        </Stack>
      </Input.Wrapper>
    </Stack>
  );
}
