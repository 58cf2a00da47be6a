import { z } from '../zod.ts';
import { fileSummary } from './content.ts';
import { bodyId, id, isoDateTime, order } from './fields.ts';

/**
 * The API contract of the online video library: videos, favourites,
 * completion, ratings, video types, programs and tags. Field names are the
 * spec's; timestamps travel as ISO strings. Create inputs drop unknown keys, so
 * the save pattern's non-numeric id ('nuevo') on a create is fine.
 */

const optionalText = (max: number) => z.string().trim().max(max).nullish();

/** Videos per page of every video list (spec §9). */
export const VIDEO_PAGE_SIZE = 32;

/** `?tag_id=1&tag_id=2`, `?tag_id=1,2`, a number or an array of them: the list of tag ids. */
const idList = z.preprocess((value) => {
  if (value === undefined || value === null || value === '') return undefined;
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) => (typeof item === 'string' ? item.split(',').filter((s) => s.trim() !== '') : [item]));
}, z.array(id).max(50).optional());

/**
 * Duration filter in minutes: '20' is at most 20 minutes, '20-40' is 20 to 40
 * inclusive, '40-' is 40 or more, '-20' is at most 20.
 */
export const videoDurationFilter = z
  .union([z.number().int().min(0), z.string().trim()])
  .transform((v) => String(v))
  .pipe(
    z
      .string()
      .regex(/^(\d{1,4}|\d{0,4}-\d{0,4})$/, { error: 'La duración debe ser minutos (20) o un rango (20-40, 40-).' })
      .refine((v) => v !== '-', { error: 'La duración debe ser minutos (20) o un rango (20-40, 40-).' }),
  );

/** `?completed=true|false` (also '1'/'0'); a string over tRPC too, as REST query values are strings. */
const booleanParam = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** GET /api/videos: the spec's filter set (all optional); 32 per page, page from 1. */
export const videoListInput = z.object({
  /** Spanish full-text search over name and description ('respiracion' finds 'Respiración'). */
  query: z.string().trim().max(200).optional(),
  instructor_id: id.optional(),
  class_type_id: id.optional(),
  class_category_id: id.optional(),
  video_type_id: id.optional(),
  program_id: id.optional(),
  /** Videos with ANY of these tags. */
  tag_id: idList,
  duration: videoDurationFilter.optional(),
  /** true: only videos the caller completed; false: only those not completed. */
  completed: booleanParam.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type VideoListInput = z.input<typeof videoListInput>;

/** GET /api/videos/tag/{id} and /api/videos/program/{id}. */
export const videoByRelationInput = z.object({ id, page: z.coerce.number().int().min(1).max(10_000).default(1) });
export const videoIdInput = z.object({ id });

export const videoInstructor = z.object({
  instructor_id: z.number(),
  name: z.string(),
  last_name: z.string().nullable(),
  nick_name: z.string().nullable(),
  file: fileSummary.nullable(),
});

export const videoTagSummary = z.object({ tag_id: z.number(), name: z.string(), color: z.string().nullable(), type: z.string() });
export const videoProgramSummary = z.object({ program_id: z.number(), name: z.string() });

/** The caller's own playback row (one per customer and video). */
export const videoPlayback = z.object({
  playback_id: z.number(),
  customer_id: z.number(),
  completed: z.boolean(),
  stars: z.number().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const videoOutput = z.object({
  video_id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  /** Minutes. */
  duration: z.number(),
  /** Embed URL of the third-party player. */
  url: z.string(),
  thumbnail: z.string().nullable(),
  file: fileSummary.nullable(),
  release_date: isoDateTime,
  instructor: videoInstructor.nullable(),
  video_type: z.object({ video_type_id: z.number(), name: z.string() }).nullable(),
  class_type: z.object({ class_type_id: z.number(), name: z.string() }).nullable(),
  class_category_id: z.number().nullable(),
  tags: z.array(videoTagSummary),
  programs: z.array(videoProgramSummary),
  /** 1 when the caller marked it favourite (spec: 1 or 0). */
  favorite: z.union([z.literal(1), z.literal(0)]),
  /** The caller's favourite id (for DELETE /api/favorites/{id}), null when not favourite. */
  favorite_id: z.number().nullable(),
  completed: z.boolean(),
  /** The caller's own rating. */
  stars: z.number().nullable(),
  /** The caller's own playback (spec: playbacks with customer_id); empty before the first play. */
  playbacks: z.array(videoPlayback),
});
export type VideoOutput = z.infer<typeof videoOutput>;

export const videoListOutput = z.object({
  videos: z.array(videoOutput),
  /** Videos matching the filters (all pages); pages = ceil(total / 32). */
  total: z.number(),
  /** How many favourites the caller has in the whole library. */
  favorites: z.number(),
  /** Always false on a 200: a caller without an online membership gets a 412 instead. */
  purchase_needed: z.boolean(),
});
export type VideoListOutput = z.infer<typeof videoListOutput>;

/**
 * An announced video on the public teaser (GET /api/videos/upcoming): `url`,
 * the player's address, is null unless the caller may watch (an online
 * membership, or staff); everything else is the library's video.
 */
export const videoTeaserOutput = videoOutput.extend({ url: z.string().nullable() });
export type VideoTeaserOutput = z.infer<typeof videoTeaserOutput>;
export const videoUpcomingOutput = z.object({ videos: z.array(videoTeaserOutput) });
export const videoOneOutput = z.object({ video: videoOutput });

/** POST /api/videos/rating: one rating per customer and video; rating again replaces it. */
export const videoRateInput = z.object({
  video_id: bodyId,
  stars: z.number({ error: 'Elige de 1 a 5 estrellas.' }).int().min(1, { error: 'Elige de 1 a 5 estrellas.' }).max(5, { error: 'Elige de 1 a 5 estrellas.' }),
  comment: optionalText(2000),
});
export const videoRateEmailInput = z.object({ video_id: bodyId });

// ---------- Favourites ----------

export const favoriteOutput = z.object({
  favorite_id: z.number(),
  customer_id: z.number(),
  video_id: z.number(),
  createdAt: isoDateTime,
  video: videoOutput,
});
export type FavoriteOutput = z.infer<typeof favoriteOutput>;

export const favoritesListOutput = z.object({ favorites: z.array(favoriteOutput) });
/** POST /api/favorites: adding a favourite twice answers the existing one (idempotent). */
export const favoriteAddInput = z.object({ video_id: bodyId });
export const favoriteOneOutput = z.object({ favorite: favoriteOutput });
/** DELETE /api/favorites/{id}: id is the favorite_id, or the video_id with ?by=video. */
export const favoriteRemoveInput = z.object({ id, by: z.enum(['favorite', 'video']).default('favorite') });

// ---------- Video types ----------

export const videoTypeOutput = z.object({
  video_type_id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  order: z.number(),
});
export const videoTypesListOutput = z.object({ video_types: z.array(videoTypeOutput) });

// ---------- Programs ----------

export const programOutput = z.object({
  program_id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  image: z.string().nullable(),
  available: z.boolean(),
  order: z.number(),
  /** The program's videos in order. */
  video_ids: z.array(z.number()),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type ProgramOutput = z.infer<typeof programOutput>;

const programFields = {
  name: z.string().trim().min(1, { error: 'Debes escribir el nombre del programa.' }).max(200),
  description: optionalText(5000),
  image: optionalText(1000),
  available: z.boolean().optional(),
  order: order.optional(),
  /** Replaces the program's videos, in this order. */
  video_ids: z.array(bodyId).max(500).optional(),
};
export const programCreateInput = z.object(programFields);
export const programUpdateInput = z.object({ program_id: bodyId, ...z.object(programFields).partial().shape });
export const programsListOutput = z.object({ programs: z.array(programOutput) });
export const programOneOutput = z.object({ program: programOutput });

export const videoByProgramOutput = videoListOutput.extend({ program: programOutput });

// ---------- Tags ----------

export const tagTypes = ['video', 'class'] as const;

export const tagOutput = z.object({ tag_id: z.number(), name: z.string(), type: z.string(), color: z.string().nullable() });
export type TagOutput = z.infer<typeof tagOutput>;

export const tagListInput = z.object({ type: z.enum(tagTypes).optional() });
const tagFields = {
  name: z.string().trim().min(1, { error: 'Debes escribir el nombre de la etiqueta.' }).max(100),
  type: z.enum(tagTypes).optional(),
  color: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'El color debe tener el formato #RRGGBB.' })
    .nullish()
    .or(z.literal('').transform(() => null)),
};
export const tagCreateInput = z.object(tagFields);
export const tagUpdateInput = z.object({ tag_id: bodyId, ...z.object(tagFields).partial().shape });
export const tagsListOutput = z.object({ tags: z.array(tagOutput) });
export const tagOneOutput = z.object({ tag: tagOutput });

// ---------- Admin: videos and video types ----------

/** Players a video may be embedded from (page links are turned into embeds by the portal's player). */
export const videoPlayerHosts = [
  'youtube.com',
  'm.youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'vimeo.com',
  'player.vimeo.com',
  'fast.wistia.net',
  'fast.wistia.com',
  'player.mux.com',
  'stream.mux.com',
  'iframe.videodelivery.net',
] as const;
const videoFileExtension = /\.(mp4|webm|m4v|mov|ogv|m3u8)$/i;
/** The default largest video file (bytes, 2 GB): the server's FILES_VIDEO_MAX_BYTES unless configured, and the console's check before sending. */
export const videoFileMaxBytes = 2_000_000_000;

/** A file's size for people: '48 MB', '1.2 GB', '900 KB' (decimal units, as disks are sold); the console's bar and the server's refusal say it the same way. */
export function fileSizeText(bytes: number): string {
  const [value, unit] = bytes >= 1e9 ? [bytes / 1e9, 'GB'] : bytes >= 1e6 ? [bytes / 1e6, 'MB'] : [bytes / 1e3, 'KB'];
  return `${value.toLocaleString('es-MX', { maximumFractionDigits: 1 })} ${unit}`;
}
/** The video files the studio's storage takes (by content on the server; by type or name in the console). */
export const videoFileTypes = ['video/mp4', 'video/webm', 'video/quicktime'] as const;
/** A video file uploaded to the studio's own server (POST /api/files/video, decision 046): '/files/<random id>.mp4|webm|mov'. */
export const ownVideoFilePath = /^\/files\/[a-z0-9-]+\.(mp4|webm|mov)$/;

/**
 * Where a video plays from: https only, and either a known player
 * (YouTube, Vimeo, Wistia, Mux, Cloudflare Stream) or a direct video file
 * (.mp4, .webm, …), or a file uploaded to the studio's own server
 * ('/files/…', decision 046). Anything else would be an iframe of any site
 * inside the members' area.
 */
export function videoUrlProblem(value: string): string | null {
  if (ownVideoFilePath.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Escribe la liga completa del video (https://…).';
  }
  if (url.protocol !== 'https:') return 'La liga del video debe empezar con https://.';
  const host = url.hostname.replace(/^www\./, '');
  if ((videoPlayerHosts as readonly string[]).includes(host)) return null;
  if (videoFileExtension.test(url.pathname)) return null;
  return 'Usa una liga de YouTube, Vimeo, Wistia, Mux o Cloudflare Stream, o la de un archivo de video (.mp4, .webm).';
}

const videoUrl = z
  .string({ error: 'Escribe la liga del video.' })
  .trim()
  .min(1, { error: 'Escribe la liga del video.' })
  .max(2000)
  .superRefine((value, ctx) => {
    const problem = videoUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A publish date: an ISO instant or a studio day 'YYYY-MM-DD' (its start, in the studio's zone, decided by the server). */
const releaseDate = z
  .string()
  .trim()
  .refine((v) => /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(v) && !Number.isNaN(Date.parse(v)), { error: 'Elige una fecha de publicación válida.' });

const optionalRef = bodyId.nullish();

const videoFields = {
  name: z.string().trim().min(1, { error: 'Escribe el nombre del video.' }).max(200),
  description: optionalText(5000),
  duration: z.number({ error: 'Escribe la duración en minutos.' }).int({ error: 'La duración son minutos enteros.' }).min(0, { error: 'La duración no puede ser negativa.' }).max(10_000),
  url: videoUrl,
  /** The thumbnail: an uploaded image's address (POST /api/files) or any https image. */
  thumbnail: optionalText(1000),
  instructor_id: optionalRef,
  video_type_id: optionalRef,
  class_type_id: optionalRef,
  class_category_id: optionalRef,
  /** Before this instant the video is 'upcoming' (GET /api/videos/upcoming), after it, in the library. Default: now. */
  release_date: releaseDate.optional(),
  available: z.boolean().optional(),
  /** Replaces the video's tags. */
  tag_ids: z.array(bodyId).max(100).optional(),
};
export const videoCreateInput = z.object(videoFields);
export const videoUpdateInput = z.object({ video_id: bodyId, ...z.object(videoFields).partial().shape });
export type VideoCreateInput = z.output<typeof videoCreateInput>;

/** GET /api/videos/admin/all: every video, published, upcoming and hidden (not the deleted). */
export const videoAdminRow = z.object({
  video_id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  duration: z.number(),
  url: z.string(),
  thumbnail: z.string().nullable(),
  instructor_id: z.number().nullable(),
  video_type_id: z.number().nullable(),
  class_type_id: z.number().nullable(),
  class_category_id: z.number().nullable(),
  release_date: isoDateTime,
  available: z.boolean(),
  tag_ids: z.array(z.number()),
  /** 'published', 'upcoming' (release date ahead) or 'hidden' (not available). */
  status: z.enum(['published', 'upcoming', 'hidden']),
});
export type VideoAdminRow = z.infer<typeof videoAdminRow>;
export const videoAdminListOutput = z.object({ videos: z.array(videoAdminRow) });
export const videoAdminOneOutput = z.object({ video: videoAdminRow });

const videoTypeFields = {
  name: z.string().trim().min(1, { error: 'Escribe el nombre del tipo de video.' }).max(100),
  description: optionalText(2000),
  order: order.optional(),
};
export const videoTypeCreateInput = z.object(videoTypeFields);
export const videoTypeUpdateInput = z.object({ video_type_id: bodyId, ...z.object(videoTypeFields).partial().shape });
export const videoTypeOneOutput = z.object({ video_type: videoTypeOutput });
