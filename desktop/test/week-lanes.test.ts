import { describe, expect, it } from 'vitest';
import { dayLanes } from '../src/renderer/src/admin/schedule/week.ts';

/** The console's week lays overlapping classes side by side: none hides under another. */
const at = (time: string, minutes: number) => {
  const [h, m] = time.split(':').map(Number);
  const start = h! * 60 + m!;
  return { name: `${time}+${minutes}`, start, end: start + minutes };
};
const lanesOf = (items: ReturnType<typeof at>[]) => {
  const placed = dayLanes(items, (i) => i);
  return Object.fromEntries(items.map((i) => [i.name, `${placed.get(i)!.lane + 1}/${placed.get(i)!.lanes}`]));
};

describe('the week lays overlapping classes side by side', () => {
  it('a 06:30 class beside the 07:00 one it runs into, and a class alone keeps the whole width', () => {
    expect(lanesOf([at('07:00', 50), at('06:30', 60), at('09:00', 50)])).toEqual({ '07:00+50': '2/2', '06:30+60': '1/2', '09:00+50': '1/1' });
  });

  it('three at once take three lanes; a class after the first ends takes its lane again within the group', () => {
    expect(lanesOf([at('07:00', 60), at('07:00', 60), at('07:30', 60), at('08:00', 30)])).toEqual({
      '07:00+60': '2/3',
      '07:30+60': '3/3',
      '08:00+30': '1/3',
    });
  });

  it('a class starting when another ends does not share its width', () => {
    expect(lanesOf([at('07:00', 60), at('08:00', 60)])).toEqual({ '07:00+60': '1/1', '08:00+60': '1/1' });
  });
});
