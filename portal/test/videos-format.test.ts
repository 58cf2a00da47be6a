import { describe, expect, it } from 'vitest';
import { playerSource, truncate, VIDEO_DESCRIPTION_LIMIT, VIDEO_NAME_LIMIT } from '../src/videos/format.ts';

describe('video card texts (spec §9: name 35, description 60)', () => {
  it('keeps a short text and cuts a long one to the limit, ending in an ellipsis', () => {
    expect(truncate('Yoga para despertar', VIDEO_NAME_LIMIT)).toBe('Yoga para despertar');
    const name = 'Barre express: brazos, core y glúteos en casa';
    const cut = truncate(name, VIDEO_NAME_LIMIT);
    expect(cut).toHaveLength(VIDEO_NAME_LIMIT);
    expect(cut.endsWith('…')).toBe(true);
    const description = 'Posturas para liberar la tensión de caderas y espalda baja después de estar sentada.';
    expect(truncate(description, VIDEO_DESCRIPTION_LIMIT).length).toBeLessThanOrEqual(VIDEO_DESCRIPTION_LIMIT);
    expect(truncate(null, VIDEO_NAME_LIMIT)).toBe('');
  });
});

describe('player source', () => {
  it('embeds Vimeo and YouTube players and plays media files directly', () => {
    expect(playerSource('https://player.vimeo.com/video/824804100')).toEqual({ kind: 'iframe', src: 'https://player.vimeo.com/video/824804100' });
    expect(playerSource('https://vimeo.com/824804100')).toEqual({ kind: 'iframe', src: 'https://player.vimeo.com/video/824804100' });
    expect(playerSource('https://www.youtube.com/watch?v=abc123')).toEqual({ kind: 'iframe', src: 'https://www.youtube.com/embed/abc123' });
    expect(playerSource('https://youtu.be/abc123')).toEqual({ kind: 'iframe', src: 'https://www.youtube.com/embed/abc123' });
    expect(playerSource('https://cdn.estudio.demo/clases/yin.mp4')).toEqual({ kind: 'file', src: 'https://cdn.estudio.demo/clases/yin.mp4' });
    expect(playerSource('javascript:alert(1)')).toBeNull();
  });
});
