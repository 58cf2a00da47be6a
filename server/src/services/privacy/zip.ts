import { crc32, deflateRawSync } from 'node:zlib';

/** One file of a ZIP: its name inside the archive and its bytes. */
export interface ZipEntry {
  name: string;
  data: Buffer;
}

/** MS-DOS date and time, as ZIP headers keep them (local time of the archive's clock: here the studio's wall clock). */
function dosDateTime(wall: { year: number; month: number; day: number; hour: number; minute: number; second: number }): { date: number; time: number } {
  return {
    date: ((wall.year - 1980) << 9) | (wall.month << 5) | wall.day,
    time: (wall.hour << 11) | (wall.minute << 5) | Math.floor(wall.second / 2),
  };
}

/**
 * A ZIP archive of small files, deflated, names in UTF-8 (flag bit 11): what Windows' Explorer, macOS and Excel users
 * open by double click. Small on purpose: no ZIP64, so each file and the whole archive stay under 4 GiB (a customer's
 * data is a few megabytes at most).
 */
export function zipArchive(entries: readonly ZipEntry[], wall: Parameters<typeof dosDateTime>[0]): Buffer {
  const { date, time } = dosDateTime(wall);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const packed = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    // extra, comment, disk number, internal attributes, external attributes: none.
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
