export { imageTypeOf, type AvatarType } from './image';
export { avatarUrl, readAvatar, saveAvatar } from './store';
