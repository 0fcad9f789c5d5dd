#include "regemu/uml/wire/vhost_user_messages.hpp"

namespace regemu::uml::vhost {

std::string RequestName(uint32_t request) {
  const char* name = nullptr;
  switch (static_cast<Request>(request)) {
    case Request::kGetFeatures: name = "GET_FEATURES"; break;
    case Request::kSetFeatures: name = "SET_FEATURES"; break;
    case Request::kSetOwner: name = "SET_OWNER"; break;
    case Request::kResetOwner: name = "RESET_OWNER"; break;
    case Request::kSetMemTable: name = "SET_MEM_TABLE"; break;
    case Request::kSetLogBase: name = "SET_LOG_BASE"; break;
    case Request::kSetLogFd: name = "SET_LOG_FD"; break;
    case Request::kSetVringNum: name = "SET_VRING_NUM"; break;
    case Request::kSetVringAddr: name = "SET_VRING_ADDR"; break;
    case Request::kSetVringBase: name = "SET_VRING_BASE"; break;
    case Request::kGetVringBase: name = "GET_VRING_BASE"; break;
    case Request::kSetVringKick: name = "SET_VRING_KICK"; break;
    case Request::kSetVringCall: name = "SET_VRING_CALL"; break;
    case Request::kSetVringErr: name = "SET_VRING_ERR"; break;
    case Request::kGetProtocolFeatures: name = "GET_PROTOCOL_FEATURES"; break;
    case Request::kSetProtocolFeatures: name = "SET_PROTOCOL_FEATURES"; break;
    case Request::kGetQueueNum: name = "GET_QUEUE_NUM"; break;
    case Request::kSetVringEnable: name = "SET_VRING_ENABLE"; break;
    case Request::kSendRarp: name = "SEND_RARP"; break;
    case Request::kNetSendMtu: name = "NET_SEND_MTU"; break;
    case Request::kSetSlaveReqFd: name = "SET_SLAVE_REQ_FD"; break;
    case Request::kIotlbMsg: name = "IOTLB_MSG"; break;
    case Request::kSetVringEndian: name = "SET_VRING_ENDIAN"; break;
    case Request::kGetConfig: name = "GET_CONFIG"; break;
    case Request::kSetConfig: name = "SET_CONFIG"; break;
    case Request::kVringKick: name = "VRING_KICK"; break;
  }
  if (name == nullptr) return "request " + std::to_string(request);
  return std::string(name) + " (" + std::to_string(request) + ")";
}

}  // namespace regemu::uml::vhost
