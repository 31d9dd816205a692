import { ImageOff } from 'lucide-react'
import { useState } from 'react'
import { useT } from '../../i18n/i18n'

/** The product's image with a calm placeholder when the URL does not load. */
export function ProductImage({ src, alt, className = '' }: { src: string; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false)
  if (failed || !src) {
    return (
      <div
        className={`flex items-center justify-center bg-white/5 text-muted ${className}`}
        role="img"
        aria-label={alt}
      >
        <ImageOff className="size-10" aria-hidden />
      </div>
    )
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      width={800}
      height={600}
      onError={() => setFailed(true)}
      className={`object-cover ${className}`}
    />
  )
}

/** YouTube embed (privacy-enhanced host). Browsers only autoplay muted video. */
export function VideoEmbed({ videoId, title }: { videoId: string; title: string }) {
  const t = useT()
  const src = `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?autoplay=1&mute=1&rel=0`
  return (
    <div className="relative aspect-video w-full bg-black">
      <iframe
        src={src}
        title={t('product.videoTitle', { name: title })}
        allow="autoplay; encrypted-media; picture-in-picture"
        allowFullScreen
        className="absolute inset-0 size-full border-0"
      />
    </div>
  )
}
