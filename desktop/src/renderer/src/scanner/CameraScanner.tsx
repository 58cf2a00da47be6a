import { Alert, Stack, Text } from '@mantine/core';
import { texts } from '@estudio/core';
import QrScanner from 'qr-scanner';
import { useEffect, useRef, useState } from 'react';

/** Reads a Código de Acceso with the computer's camera; the first code read is handed back once. */
export function CameraScanner({ onCode }: { onCode: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  const done = useRef(false);
  // The parent re-renders on every sync event; the camera must not restart each time.
  const handler = useRef(onCode);
  handler.current = onCode;
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const scanner = new QrScanner(
      element,
      (result) => {
        if (done.current) return;
        done.current = true;
        handler.current(result.data);
      },
      { highlightScanRegion: true, returnDetailedScanResult: true },
    );
    scanner.start().catch(() => setFailed(true));
    return () => {
      scanner.stop();
      scanner.destroy();
    };
  }, []);
  return (
    <Stack>
      {failed && <Alert color="red">{texts.desk.cameraUnavailable}</Alert>}
      <video ref={video} style={{ width: '100%', borderRadius: 8, background: '#000' }} muted playsInline />
      <Text size="sm" c="dimmed">
        {texts.desk.scannerPlaceholder}
      </Text>
    </Stack>
  );
}
