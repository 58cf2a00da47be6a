import { describe, expect, it } from 'vitest';
import { fileSizeText, ownVideoFilePath, videoCreateInput, videoUrlProblem } from '../src/index.ts';

describe('where a video plays from (decisions 038, 046)', () => {
  it("accepts the studio's own uploaded video files", () => {
    expect(videoUrlProblem('/files/0b5c7a2e-1f3d-4c1e-9a7b-2f1e3d4c5b6a.mp4')).toBeNull();
    expect(videoUrlProblem('/files/0b5c7a2e-1f3d-4c1e-9a7b-2f1e3d4c5b6a.webm')).toBeNull();
    expect(videoUrlProblem('/files/0b5c7a2e-1f3d-4c1e-9a7b-2f1e3d4c5b6a.mov')).toBeNull();
    expect(videoCreateInput.safeParse({ name: 'Subido', duration: 30, url: '/files/abc-123.mp4' }).success).toBe(true);
  });

  it('refuses other local addresses: a picture, a climb out of /files, another folder', () => {
    expect(ownVideoFilePath.test('/files/abc.png')).toBe(false);
    expect(videoUrlProblem('/files/abc.png')).not.toBeNull();
    expect(videoUrlProblem('/files/../secret.mp4')).not.toBeNull();
    expect(videoUrlProblem('/admin/abc.mp4')).not.toBeNull();
    expect(videoUrlProblem('//evil.example/files/abc.mp4')).not.toBeNull();
  });

  it('keeps the rules for links', () => {
    expect(videoUrlProblem('https://vimeo.com/76979871')).toBeNull();
    expect(videoUrlProblem('https://cdn.example.com/clase.mp4')).toBeNull();
    expect(videoUrlProblem('http://cdn.example.com/clase.mp4')).toBe('La liga del video debe empezar con https://.');
  });
});

describe('fileSizeText', () => {
  it('says sizes as people read them, in decimal units', () => {
    expect(fileSizeText(1_000_000)).toBe('1 MB');
    expect(fileSizeText(6_291_456)).toBe('6.3 MB');
    expect(fileSizeText(2_000_000_000)).toBe('2 GB');
    expect(fileSizeText(900_000)).toBe('900 KB');
  });
});
