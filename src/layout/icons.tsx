/** Sidebar icons by name (route tree `meta.icon`), from @mui/icons-material. Unknown names get a dot. */
import type { SvgIconComponent } from '@mui/icons-material';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import CategoryIcon from '@mui/icons-material/Category';
import FactoryIcon from '@mui/icons-material/Factory';
import PaletteIcon from '@mui/icons-material/Palette';
import PersonIcon from '@mui/icons-material/Person';
import ImageIcon from '@mui/icons-material/Image';
import GavelIcon from '@mui/icons-material/Gavel';
import PeopleIcon from '@mui/icons-material/People';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import PostAddIcon from '@mui/icons-material/PostAdd';
import LocalHospitalIcon from '@mui/icons-material/LocalHospital';
import BusinessIcon from '@mui/icons-material/Business';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import CampaignIcon from '@mui/icons-material/Campaign';
import MailIcon from '@mui/icons-material/Mail';
import AgricultureIcon from '@mui/icons-material/Agriculture';
import LockIcon from '@mui/icons-material/Lock';
import NotificationsIcon from '@mui/icons-material/Notifications';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import PolicyIcon from '@mui/icons-material/Policy';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import ComputerIcon from '@mui/icons-material/Computer';
import StraightenIcon from '@mui/icons-material/Straighten';
import EditNoteIcon from '@mui/icons-material/EditNote';
import ContentCutIcon from '@mui/icons-material/ContentCut';
import RestoreIcon from '@mui/icons-material/Restore';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import HubIcon from '@mui/icons-material/Hub';
import ForumIcon from '@mui/icons-material/Forum';
import HandshakeIcon from '@mui/icons-material/Handshake';
import LinkIcon from '@mui/icons-material/Link';
import ViewInArIcon from '@mui/icons-material/ViewInAr';
import CurrencyBitcoinIcon from '@mui/icons-material/CurrencyBitcoin';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import StorageIcon from '@mui/icons-material/Storage';
import InventoryIcon from '@mui/icons-material/Inventory';
import DescriptionIcon from '@mui/icons-material/Description';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import ReceiptIcon from '@mui/icons-material/Receipt';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import SailingIcon from '@mui/icons-material/Sailing';
import DirectionsBoatIcon from '@mui/icons-material/DirectionsBoat';
import SettingsIcon from '@mui/icons-material/Settings';
import PasswordIcon from '@mui/icons-material/Password';
import KeyIcon from '@mui/icons-material/Key';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import ShieldIcon from '@mui/icons-material/Shield';
import HowToVoteIcon from '@mui/icons-material/HowToVote';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import CodeIcon from '@mui/icons-material/Code';
import DashboardIcon from '@mui/icons-material/Dashboard';

/** Every icon a route (`meta.icon`) or a schema (`x-resource.icon`) may name, by @mui/icons-material name. */
export const ICONS: Record<string, SvgIconComponent> = {
  Category: CategoryIcon,
  Factory: FactoryIcon,
  Palette: PaletteIcon,
  Person: PersonIcon,
  Image: ImageIcon,
  Gavel: GavelIcon,
  People: PeopleIcon,
  FactCheck: FactCheckIcon,
  PostAdd: PostAddIcon,
  LocalHospital: LocalHospitalIcon,
  Business: BusinessIcon,
  LocalShipping: LocalShippingIcon,
  Campaign: CampaignIcon,
  Mail: MailIcon,
  Agriculture: AgricultureIcon,
  Lock: LockIcon,
  Notifications: NotificationsIcon,
  ManageAccounts: ManageAccountsIcon,
  AdminPanelSettings: AdminPanelSettingsIcon,
  Policy: PolicyIcon,
  AccountTree: AccountTreeIcon,
  Computer: ComputerIcon,
  Straighten: StraightenIcon,
  EditNote: EditNoteIcon,
  ContentCut: ContentCutIcon,
  Restore: RestoreIcon,
  SwapHoriz: SwapHorizIcon,
  Hub: HubIcon,
  Forum: ForumIcon,
  Handshake: HandshakeIcon,
  Link: LinkIcon,
  ViewInAr: ViewInArIcon,
  CurrencyBitcoin: CurrencyBitcoinIcon,
  AccountBalance: AccountBalanceIcon,
  Storage: StorageIcon,
  Inventory: InventoryIcon,
  Description: DescriptionIcon,
  SupportAgent: SupportAgentIcon,
  ReceiptLong: ReceiptLongIcon,
  Receipt: ReceiptIcon,
  EventRepeat: EventRepeatIcon,
  Inventory2: Inventory2Icon,
  Sailing: SailingIcon,
  DirectionsBoat: DirectionsBoatIcon,
  Settings: SettingsIcon,
  Password: PasswordIcon,
  Key: KeyIcon,
  VpnKey: VpnKeyIcon,
  Shield: ShieldIcon,
  HowToVote: HowToVoteIcon,
  AccountCircle: AccountCircleIcon,
  Dashboard: DashboardIcon,
  Code: CodeIcon,
};

/** The icon component for a route's `meta.icon`. */
export function routeIcon(name: string | undefined): SvgIconComponent {
  return (name && ICONS[name]) || FiberManualRecord;
}
