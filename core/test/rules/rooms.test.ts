import { describe, expect, it } from 'vitest';
import { classSeatMap, placeLabel, roomCapacityBelowClassMessage, roomCapacityRefusal, roomInUseMessage, scheduleClashMessage } from '../../src/index.ts';

const tz = 'America/Mexico_City';

describe('a class in a room', () => {
  it('takes its room’s seat map when the room has one, else its type’s', () => {
    const cycling = { spot_map: '4,6,6' };
    expect(classSeatMap({ spot_map: '3,3' }, cycling)).toBe('3,3');
    expect(classSeatMap({ spot_map: null }, cycling)).toBe('4,6,6');
    expect(classSeatMap(null, cycling)).toBe('4,6,6');
    expect(classSeatMap(undefined, { spot_map: null })).toBeNull();
    expect(classSeatMap({ spot_map: '5' }, { spot_map: null })).toBe('5');
  });

  it('reads as its location and room', () => {
    expect(placeLabel('Roma Norte', 'Salón A')).toBe('Roma Norte · Salón A');
    expect(placeLabel('Roma Norte', null)).toBe('Roma Norte');
  });

  it('holds no more people than its room, when the room says how many', () => {
    expect(roomCapacityRefusal(12, { name: 'Salón A', capacity: 10 })).toBe('El cupo de la clase (12) es mayor que el de Salón A (10 lugares). Baja el cupo o elige otro salón.');
    expect(roomCapacityRefusal(1, { name: 'Cabina', capacity: 0 })).toContain('(0 lugares)');
    expect(roomCapacityRefusal(2, { name: 'Cabina', capacity: 1 })).toContain('(1 lugar)');
    expect(roomCapacityRefusal(10, { name: 'Salón A', capacity: 10 })).toBeNull();
    expect(roomCapacityRefusal(40, { name: 'Salón A', capacity: null })).toBeNull();
    expect(roomCapacityRefusal(40, null)).toBeNull();
  });

  it('names the class in the way in its room', () => {
    const clash = { className: 'Yoga', start: new Date('2026-12-08T13:00:00Z'), minutes: 60, locationName: 'Roma Norte', roomName: 'Salón A', coachName: null };
    expect(scheduleClashMessage(clash, tz)).toBe('Se cruza con Yoga del martes 8 de diciembre, 07:00–08:00, en el Salón A de Roma Norte. Si es a propósito, confírmalo para guardarla de todos modos.');
    expect(scheduleClashMessage({ ...clash, roomName: null }, tz)).toContain(', en Roma Norte.');
  });
});

describe('a room with classes to come', () => {
  it('says how many and the first one’s day', () => {
    expect(roomInUseMessage(3, new Date('2026-12-08T13:00:00Z'), tz)).toBe(
      'No puedes eliminar este salón: tiene 3 clases por venir, la primera el martes 8 de diciembre. Cámbialas de salón o cancélalas antes.',
    );
    expect(roomInUseMessage(1, new Date('2026-12-08T13:00:00Z'), tz)).toBe(
      'No puedes eliminar este salón: tiene una clase por venir, el martes 8 de diciembre. Cámbiala de salón o cancélala antes.',
    );
  });

  it('names the class a smaller capacity would not hold', () => {
    expect(roomCapacityBelowClassMessage({ className: 'Barre', start: new Date('2026-12-08T13:00:00Z'), capacity: 9 }, tz)).toBe(
      'Barre del martes 8 de diciembre, 07:00 tiene cupo de 9: el salón no puede tener menos. Baja antes el cupo de la clase o déjala en otro salón.',
    );
  });
});
