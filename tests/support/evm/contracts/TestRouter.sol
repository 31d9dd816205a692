// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// Moves tokens on a payer's behalf with transferFrom, as a wallet's swap or payment router does:
/// the token's Transfer log names the payer and the recipient, and the transaction is sent to
/// this contract, not to the token.
contract TestRouter {
    function pay(IERC20 token, address from, address to, uint256 amount) external {
        require(token.transferFrom(from, to, amount), "transferFrom failed");
    }
}
