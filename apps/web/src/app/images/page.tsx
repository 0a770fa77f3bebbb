import { ImagesView } from '../../features/images/images-view.tsx';

export default function ImagesPage() {
  return <ImagesView />;
}
