/**
 * Sidebar and react-admin icons by @mui/icons-material name. A schema's `x-resource.icon` may name any icon
 * of the package: codegen imports exactly the ones the schemas name (src/generated/icons.ts, from
 * scripts/codegen/icons.ts) and refuses a name the package does not have. The shell's own route tree
 * (src/shell/routes.ts `meta.icon`) imports its icons here. An unknown name gets a dot.
 */
import type { SvgIconComponent } from '@mui/icons-material';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import AgricultureIcon from '@mui/icons-material/Agriculture';
import CodeIcon from '@mui/icons-material/Code';
import ContentCutIcon from '@mui/icons-material/ContentCut';
import CurrencyBitcoinIcon from '@mui/icons-material/CurrencyBitcoin';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DirectionsBoatIcon from '@mui/icons-material/DirectionsBoat';
import EditNoteIcon from '@mui/icons-material/EditNote';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import FactoryIcon from '@mui/icons-material/Factory';
import ForumIcon from '@mui/icons-material/Forum';
import HandshakeIcon from '@mui/icons-material/Handshake';
import HowToVoteIcon from '@mui/icons-material/HowToVote';
import HubIcon from '@mui/icons-material/Hub';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import KeyIcon from '@mui/icons-material/Key';
import LinkIcon from '@mui/icons-material/Link';
import LocalHospitalIcon from '@mui/icons-material/LocalHospital';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import LockIcon from '@mui/icons-material/Lock';
import MailIcon from '@mui/icons-material/Mail';
import NotificationsIcon from '@mui/icons-material/Notifications';
import PaletteIcon from '@mui/icons-material/Palette';
import PasswordIcon from '@mui/icons-material/Password';
import PersonIcon from '@mui/icons-material/Person';
import PolicyIcon from '@mui/icons-material/Policy';
import PostAddIcon from '@mui/icons-material/PostAdd';
import ReceiptIcon from '@mui/icons-material/Receipt';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import RestoreIcon from '@mui/icons-material/Restore';
import SailingIcon from '@mui/icons-material/Sailing';
import SettingsIcon from '@mui/icons-material/Settings';
import ShieldIcon from '@mui/icons-material/Shield';
import StorageIcon from '@mui/icons-material/Storage';
import StraightenIcon from '@mui/icons-material/Straighten';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import ViewInArIcon from '@mui/icons-material/ViewInAr';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import { schemaIcons } from '../generated/icons';

/** The icons of the shell's hand-written routes (src/shell/routes.ts `meta.icon`), by name. */
export const SHELL_ICONS: Record<string, SvgIconComponent> = {
  AccountBalance: AccountBalanceIcon,
  AccountCircle: AccountCircleIcon,
  AccountTree: AccountTreeIcon,
  AdminPanelSettings: AdminPanelSettingsIcon,
  Agriculture: AgricultureIcon,
  Code: CodeIcon,
  ContentCut: ContentCutIcon,
  CurrencyBitcoin: CurrencyBitcoinIcon,
  Dashboard: DashboardIcon,
  DirectionsBoat: DirectionsBoatIcon,
  EditNote: EditNoteIcon,
  EventRepeat: EventRepeatIcon,
  FactCheck: FactCheckIcon,
  Factory: FactoryIcon,
  Forum: ForumIcon,
  Handshake: HandshakeIcon,
  HowToVote: HowToVoteIcon,
  Hub: HubIcon,
  Inventory2: Inventory2Icon,
  Key: KeyIcon,
  Link: LinkIcon,
  LocalHospital: LocalHospitalIcon,
  LocalShipping: LocalShippingIcon,
  Lock: LockIcon,
  Mail: MailIcon,
  Notifications: NotificationsIcon,
  Palette: PaletteIcon,
  Password: PasswordIcon,
  Person: PersonIcon,
  Policy: PolicyIcon,
  PostAdd: PostAddIcon,
  Receipt: ReceiptIcon,
  ReceiptLong: ReceiptLongIcon,
  Restore: RestoreIcon,
  Sailing: SailingIcon,
  Settings: SettingsIcon,
  Shield: ShieldIcon,
  Storage: StorageIcon,
  Straighten: StraightenIcon,
  SupportAgent: SupportAgentIcon,
  SwapHoriz: SwapHorizIcon,
  ViewInAr: ViewInArIcon,
  VpnKey: VpnKeyIcon,
};

/** The icon named `name`: a schema's (generated) or a shell route's; undefined when neither has it. */
export function iconNamed(name: string): SvgIconComponent | undefined {
  return schemaIcons[name] ?? SHELL_ICONS[name];
}

/** The icon component for a route's `meta.icon` (a dot when it names none). */
export function routeIcon(name: string | undefined): SvgIconComponent {
  return (name && iconNamed(name)) || FiberManualRecord;
}
