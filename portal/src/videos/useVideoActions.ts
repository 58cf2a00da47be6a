import { texts, type VideoOutput } from '@estudio/core';
import { trpc } from '../api/trpc.ts';
import { errorMessage } from '../api/errors.ts';
import { showError, showSuccess } from '../ui/alerts.ts';

/** Every cached answer that shows a video's flags: lists, favourites and the player page. */
function useRefreshVideos() {
  const utils = trpc.useUtils();
  return () =>
    Promise.all([utils.videos.list.invalidate(), utils.favorites.list.invalidate(), utils.videos.byId.invalidate()]);
}

/**
 * Favourite toggle (spec: toggling sets the video's favorite flag to 1 or 0).
 * The flag flips in the loaded list at once, then every view is refreshed.
 */
export function useFavoriteToggle() {
  const utils = trpc.useUtils();
  const refresh = useRefreshVideos();
  const setFlag = (videoId: number, favorite: 0 | 1) => {
    utils.videos.list.setQueriesData({}, {}, (data) =>
      data ? { ...data, videos: data.videos.map((v) => (v.video_id === videoId ? { ...v, favorite } : v)) } : data,
    );
  };
  const add = trpc.favorites.add.useMutation({
    onMutate: ({ video_id }) => setFlag(video_id, 1),
    onSuccess: () => showSuccess(texts.videos.favoriteAdded),
    onError: (error, { video_id }) => {
      setFlag(video_id, 0);
      showError(errorMessage(error));
    },
    onSettled: refresh,
  });
  const remove = trpc.favorites.remove.useMutation({
    onMutate: ({ id }) => setFlag(Number(id), 0),
    onSuccess: () => showSuccess(texts.videos.favoriteRemoved),
    onError: (error, { id }) => {
      setFlag(Number(id), 1);
      showError(errorMessage(error));
    },
    onSettled: refresh,
  });
  return {
    toggle(video: VideoOutput) {
      if (video.favorite === 1) remove.mutate({ id: video.video_id, by: 'video' });
      else add.mutate({ video_id: video.video_id });
    },
    pendingFor: (videoId: number) =>
      (add.isPending && add.variables?.video_id === videoId) || (remove.isPending && remove.variables?.id === videoId),
  };
}

/** Completion mark and rating of the player page. */
export function useVideoProgress() {
  const refresh = useRefreshVideos();
  const onError = (error: unknown) => showError(errorMessage(error));
  const complete = trpc.videos.complete.useMutation({ onSuccess: refresh, onError });
  const uncomplete = trpc.videos.uncomplete.useMutation({ onSuccess: refresh, onError });
  const rate = trpc.videos.rate.useMutation({
    onSuccess: async () => {
      showSuccess(texts.videos.ratingSaved);
      await refresh();
    },
    onError,
  });
  return { complete, uncomplete, rate };
}
