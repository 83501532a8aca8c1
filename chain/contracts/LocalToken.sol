// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title LocalToken: the project's ERC-20 for the local chain.
/// @notice Stands in for USDT, USDC, BUSD, SOL, BNB and WAVES on a local anvil, placed at the real
/// mainnet addresses so the token table is the same locally and in production. Name, symbol and
/// decimals live in storage, not in immutables, so one runtime bytecode serves all six tokens: the
/// chain package writes their slots with anvil_setStorageAt.
/// @dev Errors follow ERC-6093 (as OpenZeppelin 5 does) so wallets and ethers can decode them.
contract LocalToken {
    string public name;
    string public symbol;
    uint8 public decimals;
    /// Only this account may mint; on the local chain it is impersonated to fund wallets.
    address public minter;
    uint256 public totalSupply;
    mapping(address account => uint256) public balanceOf;
    mapping(address account => mapping(address spender => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    error ERC20InvalidSender(address sender);
    error ERC20InvalidReceiver(address receiver);
    error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error ERC20InvalidSpender(address spender);
    error LocalTokenNotMinter(address caller);

    /// The constructor is for deploying a token anywhere (tests); the chain package does not run it.
    constructor(string memory name_, string memory symbol_, uint8 decimals_, address minter_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        minter = minter_;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        // An unlimited approval is not spent down, as in OpenZeppelin and most mainnet tokens.
        if (allowed != type(uint256).max) {
            if (allowed < value) revert ERC20InsufficientAllowance(msg.sender, allowed, value);
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        if (spender == address(0)) revert ERC20InvalidSpender(address(0));
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// Creates tokens for `to`: how the local stack funds development and test wallets.
    function mint(address to, uint256 value) external {
        if (msg.sender != minter) revert LocalTokenNotMinter(msg.sender);
        if (to == address(0)) revert ERC20InvalidReceiver(address(0));
        totalSupply += value;
        unchecked {
            balanceOf[to] += value;
        }
        emit Transfer(address(0), to, value);
    }

    function _transfer(address from, address to, uint256 value) private {
        if (from == address(0)) revert ERC20InvalidSender(address(0));
        if (to == address(0)) revert ERC20InvalidReceiver(address(0));
        uint256 balance = balanceOf[from];
        if (balance < value) revert ERC20InsufficientBalance(from, balance, value);
        unchecked {
            balanceOf[from] = balance - value;
            balanceOf[to] += value;
        }
        emit Transfer(from, to, value);
    }
}
