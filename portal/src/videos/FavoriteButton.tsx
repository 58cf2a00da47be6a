import { ActionIcon, Tooltip } from '@mantine/core';
import { IconHeart, IconHeartFilled } from '@tabler/icons-react';
import { texts } from '@estudio/core';

interface FavoriteButtonProps {
  favorite: boolean;
  loading?: boolean;
  onToggle: () => void;
  size?: 'md' | 'lg' | 'xl';
  /** On a thumbnail the button needs its own background to stay readable. */
  onImage?: boolean;
}

/** The heart: filled when the video is a favourite; aria-pressed says which. */
export function FavoriteButton({ favorite, loading, onToggle, size = 'lg', onImage }: FavoriteButtonProps) {
  const label = favorite ? texts.videos.removeFavorite : texts.videos.addFavorite;
  return (
    <Tooltip label={label} openDelay={400}>
      <ActionIcon
        size={size}
        radius="xl"
        variant={onImage ? 'white' : 'light'}
        color={favorite ? 'red' : 'gray'}
        aria-label={label}
        aria-pressed={favorite}
        loading={loading}
        onClick={(event) => {
          event.preventDefault();
          event.stopPropagation();
          onToggle();
        }}
      >
        {favorite ? <IconHeartFilled size={18} /> : <IconHeart size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}
