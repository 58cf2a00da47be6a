// The console's image fields: checked, uploaded and shown.
import { texts } from '@estudio/core';
import { Button, Center, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useState } from 'react';
import { errorText } from '../format.ts';
import { trpc } from '../trpc.ts';

const t = texts.adminConsole;

/** What the console's image fields accept before sending (the server checks again). */
const imageTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
const imageMaxBytes = 5 * 1024 * 1024;

function base64Of(file: File): Promise<string> {
  return file.arrayBuffer().then((buffer) => {
    let binary = '';
    const bytes = new Uint8Array(buffer);
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
}

/**
 * Sends a picked picture to the studio's file storage (through the desk):
 * a non-image or a file over 5 MB is refused in Spanish before sending, and
 * the server checks again. Null when refused; `problem` says why.
 */
export function useImageUpload(): { upload: (file: File | null) => Promise<{ src: string; file_id: number } | null>; problem: string | null; pending: boolean } {
  const mutation = trpc.server.uploadImage.useMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = async (file: File | null) => {
    if (!file) return null;
    setProblem(null);
    if (!imageTypes.includes(file.type)) {
      setProblem(t.imageType);
      return null;
    }
    if (file.size > imageMaxBytes) {
      setProblem(t.imageTooLarge);
      return null;
    }
    try {
      return await mutation.mutateAsync({ name: file.name, type: file.type, data: await base64Of(file) });
    } catch (err) {
      setProblem(errorText(err));
      return null;
    }
  };
  return { upload, problem, pending: mutation.isPending };
}

/**
 * A page's picture: uploaded like any image field, then put in
 * the page's HTML where the text ends, as an <img> of the stored file, for
 * the owner to move or caption in the text.
 */
export function ImageInsertButton({ onInsert, testId }: { onInsert: (html: string) => void; testId: string }) {
  const { upload, problem, pending } = useImageUpload();
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <FileButton
          onChange={(file) =>
            void upload(file).then((stored) => {
              if (stored) onInsert(`<p><img src="${stored.src}" alt="" /></p>`);
            })
          }
          accept={imageTypes.join(',')}
        >
          {(props) => (
            <Button {...props} size="xs" variant="light" leftSection={<IconPhoto size={14} />} loading={pending} data-testid={`${testId}-insert-image`}>
              {t.imageInsert}
            </Button>
          )}
        </FileButton>
      </Group>
      {problem && (
        <Text size="xs" c="red">
          {problem}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The console's one image field: drop or choose a picture, see
 * it, replace it or remove it. The file goes to the studio's file storage
 * (POST /api/files through the desk) and the field keeps its address.
 */
export function ImageField({
  label,
  value,
  onChange,
  error,
  testId,
  wide = true,
}: {
  label: string;
  value: string | null;
  onChange: (src: string | null, fileId: number | null) => void;
  error?: string | undefined;
  testId: string;
  /** Spans the whole row of a form's grid (the catalogue's two columns); false beside another field. */
  wide?: boolean;
}) {
  const { upload, problem, pending } = useImageUpload();
  // The window shows no other origin's pictures (its content-security policy): the desk reads the stored one for the preview.
  const preview = trpc.server.imagePreview.useQuery({ src: value ?? '' }, { enabled: Boolean(value) });
  const shown = value ? (preview.data ?? null) : null;
  const [over, setOver] = useState(false);
  const take = async (file: File | null) => {
    const stored = await upload(file);
    if (stored) onChange(stored.src, stored.file_id);
  };
  return (
    <Input.Wrapper label={label} error={error ?? problem} style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Group
        gap="md"
        p="sm"
        data-testid={`${testId}-image`}
        onDragOver={(ev) => {
          ev.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(ev) => {
          ev.preventDefault();
          setOver(false);
          void take(ev.dataTransfer.files[0] ?? null);
        }}
        style={{ border: `1px dashed var(--mantine-color-${over ? 'teal-6' : 'gray-4'})`, borderRadius: 'var(--mantine-radius-md)' }}
      >
        {shown ? (
          <Image src={shown} alt={label} h={72} w={96} fit="cover" radius="sm" data-testid={`${testId}-preview`} />
        ) : (
          <Center h={72} w={96} bg="gray.1" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
            <IconPhoto size={28} color="var(--mantine-color-gray-5)" />
          </Center>
        )}
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t.imageDrop}
          </Text>
          <Group gap="xs">
            <FileButton onChange={(file) => void take(file)} accept={imageTypes.join(',')}>
              {(props) => (
                <Button {...props} size="xs" variant="light" loading={pending} data-testid={`${testId}-choose`}>
                  {value ? t.imageReplace : t.imageChoose}
                </Button>
              )}
            </FileButton>
            {value && (
              <Button size="xs" variant="subtle" color="red" onClick={() => onChange(null, null)} data-testid={`${testId}-remove`}>
                {t.imageRemove}
              </Button>
            )}
          </Group>
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}
